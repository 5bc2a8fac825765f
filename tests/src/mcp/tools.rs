//! Tools, resources and prompts a simulated MCP server lists.

use serde_json::{json, Map, Value};

/// One tool as `tools/list` returns it.
#[derive(Clone, Debug, PartialEq)]
pub struct Tool {
    name: String,
    title: Option<String>,
    description: Option<String>,
    input_schema: Value,
    annotations: Option<Value>,
    extra: Map<String, Value>,
}

impl Tool {
    /// A tool named `name`, described as "Tool `name`", taking an object with one string `text`.
    pub fn new(name: impl Into<String>) -> Self {
        let name = name.into();
        Self {
            description: Some(format!("Tool {name}")),
            name,
            title: None,
            input_schema: json!({
                "type": "object",
                "properties": {"text": {"type": "string"}}
            }),
            annotations: None,
            extra: Map::new(),
        }
    }

    /// Sets the display title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the description (`None` through [`Tool::no_description`]).
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Leaves the description out.
    pub fn no_description(mut self) -> Self {
        self.description = None;
        self
    }

    /// Replaces the input schema.
    pub fn input_schema(mut self, schema: Value) -> Self {
        self.input_schema = schema;
        self
    }

    /// Sets the annotations object (`readOnlyHint`, `destructiveHint`, …).
    pub fn annotations(mut self, annotations: Value) -> Self {
        self.annotations = Some(annotations);
        self
    }

    /// Annotates the tool as read-only and not destructive.
    pub fn read_only(self) -> Self {
        self.annotations(json!({"readOnlyHint": true, "destructiveHint": false}))
    }

    /// Adds any other member (`outputSchema`, `icons`, `_meta`, …).
    pub fn field(mut self, key: impl Into<String>, value: Value) -> Self {
        self.extra.insert(key.into(), value);
        self
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tool in wire form.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("name".into(), Value::String(self.name.clone()));
        if let Some(title) = &self.title {
            out.insert("title".into(), Value::String(title.clone()));
        }
        if let Some(description) = &self.description {
            out.insert("description".into(), Value::String(description.clone()));
        }
        out.insert("inputSchema".into(), self.input_schema.clone());
        if let Some(annotations) = &self.annotations {
            out.insert("annotations".into(), annotations.clone());
        }
        for (k, v) in &self.extra {
            out.insert(k.clone(), v.clone());
        }
        Value::Object(out)
    }
}

/// `n` tools named `tool_01`, `tool_02`, … (zero-padded to the width of `n`).
pub(crate) fn numbered(n: usize) -> Vec<Tool> {
    let width = n.to_string().len().max(2);
    (1..=n)
        .map(|i| {
            Tool::new(format!("tool_{i:0width$}")).description(format!("Numbered tool {i} of {n}"))
        })
        .collect()
}

/// The tools' JSON with descriptions padded so that the array takes at least `bytes` bytes
/// (an oversized answer that is still valid JSON).
pub(crate) fn padded(tools: &[Tool], bytes: usize) -> Vec<Value> {
    let base = if tools.is_empty() {
        vec![Tool::new("padding")]
    } else {
        tools.to_vec()
    };
    let each = bytes / base.len() + 1;
    base.iter()
        .map(|t| {
            let mut value = t.to_json();
            value["description"] = Value::String("lorem ipsum ".repeat(each / 12 + 1));
            value
        })
        .collect()
}

/// A resource as `resources/list` returns it.
pub(crate) fn resource_json(uri: &str, name: &str) -> Value {
    json!({"uri": uri, "name": name, "mimeType": "text/plain"})
}

/// A prompt as `prompts/list` returns it.
pub(crate) fn prompt_json(name: &str) -> Value {
    json!({"name": name, "description": format!("Prompt {name}")})
}
