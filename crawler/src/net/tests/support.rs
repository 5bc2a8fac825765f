//! The network core's routes on the crate's shared test server.

use std::time::Duration;

use bytes::Bytes;

use crate::testkit::{Canned, Seen};
pub use crate::testkit::{Mode, TestPki, TestServer as Server};

/// The host name the test certificate is for.
pub const SITE: &str = "site.test";

/// A CA and a leaf certificate for [`SITE`].
pub fn pki() -> TestPki {
    TestPki::for_names(&[SITE])
}

/// A server answering [`routes`].
pub async fn start(pki: &TestPki, mode: Mode) -> Server {
    Server::start_tls(pki, mode, routes).await
}

/// A `Link` header of 15 KB: 300 entries of ~60 bytes.
pub fn long_link() -> String {
    (0..300)
        .map(|i| format!("</.well-known/doc-{i:04}.json>; rel=\"alternate-{i:04}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

fn in_an_hour() -> std::time::SystemTime {
    std::time::SystemTime::now() + Duration::from_secs(3600)
}

/// Routes: `/ok`, `/redirect`, `/big` (10 MB), `/slow-headers`, `/trickle`, `/hold`,
/// `/busy` (429 + Retry-After), `/sse` (events 1..=5, 50 ms apart), `/long-head` (a 15 KB
/// `Link` header, and a 40 KB body), `/unavailable*` (503s with Retry-After in its forms).
fn routes(seen: &Seen) -> Canned {
    match seen.path.as_str() {
        "/ok" => Canned::new(200).text("hello"),
        "/redirect" => Canned::redirect(302, "/ok"),
        "/big" => {
            let chunk = Bytes::from(vec![b'x'; 64 * 1024]);
            Canned::new(200).repeat(chunk, 160, Duration::ZERO)
        }
        "/slow-headers" => Canned::new(200)
            .head_delay(Duration::from_secs(5))
            .text("late"),
        "/trickle" => {
            Canned::new(200).repeat(Bytes::from_static(b"."), 100, Duration::from_millis(100))
        }
        "/hold" => Canned::new(200)
            .head_delay(Duration::from_millis(150))
            .text("held"),
        "/busy" => Canned::new(429)
            .header("retry-after", "7")
            .text("slow down"),
        "/sse" => (1..=5).fold(
            Canned::new(200).header("content-type", "text/event-stream"),
            |canned, id| {
                canned
                    .pause(Duration::from_millis(50))
                    .text(format!("event: message\ndata: {{\"id\":{id}}}\n\n"))
            },
        ),
        "/long-head" => Canned::new(200)
            .header("link", &long_link())
            .text("y".repeat(40 * 1024)),
        "/unavailable" => Canned::new(503).text("no backend"),
        "/unavailable-later" => Canned::new(503).header("retry-after", "7").text("later"),
        "/unavailable-until" => Canned::new(503)
            .header("retry-after", &httpdate::fmt_http_date(in_an_hour()))
            .text("later"),
        "/unavailable-since" => Canned::new(503)
            .header("retry-after", "Sun, 06 Nov 1994 08:49:37 GMT")
            .text("now"),
        "/unavailable-someday" => Canned::new(503)
            .header("retry-after", "someday")
            .text("no backend"),
        _ => Canned::new(404).text("no such route"),
    }
}
