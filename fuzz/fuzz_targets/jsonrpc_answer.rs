//! A JSON-RPC answer body: classified, searched for the answer to our ids, and its tool list
//! read.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpcensus::mcp::{answer_in_body, read_message};
use mcpcensus::session::{read_tools, INITIALIZE_ID, TOOLS_LIST_ID};

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let _ = read_message(&value);
    let _ = answer_in_body(&value, INITIALIZE_ID);
    let _ = answer_in_body(&value, TOOLS_LIST_ID);
    if let Some(result) = value.get("result") {
        let _ = read_tools(result, 64);
    }
    let _ = read_tools(&value, 64);
});
