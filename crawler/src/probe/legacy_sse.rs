//! The deep probe over the legacy HTTP+SSE transport: a GET whose first event names the POST
//! URL, then `initialize`, `notifications/initialized` and `tools/list` with their answers
//! arriving on the stream.

use mcpcensus_store::Transport;
use url::Url;

use super::sequence::{
    dialect_headers, header, legacy_tools_body, Dialect, Probe, ID_INITIALIZE, ID_TOOLS_FIRST,
};
use super::server_urls::{refusal, sse_post_rule};
use crate::mcp::EventStream;
use crate::session::{initialize_body, initialized_body};

impl Probe<'_, '_> {
    /// The legacy HTTP+SSE transport: a GET whose first event is `endpoint`, then the session
    /// over the POST URL it names, answers arriving on the stream.
    pub(super) async fn legacy_sse(&mut self) {
        let endpoint = self.endpoint.clone();
        let stream = match self.pc.open_stream(&endpoint, "sse").await {
            Ok(Some(stream)) => stream,
            Ok(None) => return,
            Err(stop) => return self.note(&stop),
        };
        let mut stream = stream;
        let first = stream.next_event(self.pc.deadline().at()).await;
        let Some(first) = first.filter(|e| e.event == "endpoint") else {
            stream.close();
            return;
        };
        self.report.facts.transport = Some(Transport::Sse);
        let Ok(post_url) = endpoint.join(first.data.trim()) else {
            stream.close();
            return;
        };
        if let Err(rule) = sse_post_rule(&endpoint, &post_url) {
            stream.close();
            let refused = refusal(post_url.as_str(), rule);
            self.report.facts.refused_urls.push(refused);
            return;
        }
        self.sse_session(&mut stream, &post_url).await;
        stream.close();
    }

    /// Each wait on the stream reads the deadline as it then stands: the POST before it may have
    /// waited its turn on the host, which moved the deadline later.
    pub(super) async fn sse_session(&mut self, stream: &mut EventStream, post_url: &Url) {
        let sent = self
            .pc
            .post(post_url, "initialize", Vec::new(), initialize_body(), None)
            .await;
        match sent {
            Ok(read) if read.refused() => return self.read_auth(read.challenge()).await,
            Ok(_) => {}
            Err(stop) => return self.note(&stop),
        }
        let (answer, calls) = stream.answer(ID_INITIALIZE, self.pc.deadline().at()).await;
        self.report.facts.server_calls.extend(calls);
        let Some(result) = answer.as_ref().and_then(|a| a.get("result")).cloned() else {
            return;
        };
        let version = self.accept_initialize(&result, false);
        let dialect = Dialect::Legacy {
            version: version.as_deref().and_then(header),
            session: None,
        };
        let _ = self
            .pc
            .post(
                post_url,
                "notifications/initialized",
                dialect_headers(&dialect, "notifications/initialized"),
                initialized_body().to_owned(),
                None,
            )
            .await;
        // Asked whatever the server declares, as over Streamable HTTP.
        let mut cursor: Option<String> = None;
        let mut id = ID_TOOLS_FIRST;
        loop {
            let sent = self
                .pc
                .post(
                    post_url,
                    "tools/list",
                    dialect_headers(&dialect, "tools/list"),
                    legacy_tools_body(id, cursor.as_deref()),
                    None,
                )
                .await;
            match sent {
                Ok(read) if read.refused() => {
                    self.report.facts.tools.refused = true;
                    return self.read_auth(read.challenge()).await;
                }
                Ok(_) => {}
                Err(stop) => {
                    self.report.facts.tools.pending_cursor |= cursor.is_some();
                    return self.note(&stop);
                }
            }
            let (answer, calls) = stream.answer(id, self.pc.deadline().at()).await;
            self.report.facts.server_calls.extend(calls);
            let Some(result) = answer.as_ref().and_then(|a| a.get("result")) else {
                return;
            };
            if self.take_page(result, &mut cursor) {
                return;
            }
            id += 1;
        }
    }
}
