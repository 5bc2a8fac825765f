//! Response bodies: in memory, or streamed by a producer task (trickle, huge, SSE, abort,
//! kept open) through a small bounded channel, so nothing large is ever held in memory.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::reply::{Kind, Reply};
use crate::sse::SseEvent;

/// Pieces buffered between a producer and the connection.
const CHANNEL_CHUNKS: usize = 2;
/// Largest piece a producer sends at once.
const MAX_CHUNK: usize = 64 * 1024;
/// Filler for huge bodies.
static FILL: [u8; MAX_CHUNK] = [b'x'; MAX_CHUNK];

type Piece = Result<Bytes, io::Error>;

/// The body of every response the web sends.
pub(crate) enum ReplyBody {
    Full(Option<Bytes>),
    Stream {
        rx: mpsc::Receiver<Piece>,
        len: Option<u64>,
    },
}

impl ReplyBody {
    pub(crate) fn full(bytes: impl Into<Bytes>) -> Self {
        let bytes = bytes.into();
        Self::Full((!bytes.is_empty()).then_some(bytes))
    }

    /// The body of `reply` (whose kind must be `Body`, `Huge` or `Sse`), spawning a producer
    /// on `tracker` when it must be streamed.
    pub(crate) fn from_reply(
        reply: &Reply,
        tracker: &TaskTracker,
        cancel: &CancellationToken,
    ) -> Self {
        let source = match &reply.kind {
            Kind::Body(bytes)
                if reply.trickle.is_none() && reply.fail_after.is_none() && !reply.keep_open =>
            {
                return if reply.chunked {
                    let (tx, rx) = mpsc::channel(1);
                    if !bytes.is_empty() {
                        let _ = tx.try_send(Ok(bytes.clone()));
                    }
                    Self::Stream { rx, len: None }
                } else {
                    Self::full(bytes.clone())
                };
            }
            Kind::Body(bytes) => Source::Bytes(bytes.clone()),
            Kind::Huge(len) => Source::Huge(*len),
            Kind::Sse(events) => Source::Sse(Arc::clone(events)),
            Kind::Live(live) => match live.take() {
                Some(rx) => Source::Live(rx),
                None => return Self::full(Bytes::new()),
            },
            Kind::Reset | Kind::Hang | Kind::Handler(_) | Kind::AsyncHandler(_) => {
                return Self::full(Bytes::new())
            }
        };
        let len = match (&source, reply.chunked || reply.keep_open) {
            (_, true) | (Source::Sse(_) | Source::Live(_), _) => None,
            (Source::Bytes(b), false) => Some(b.len() as u64),
            (Source::Huge(n), false) => Some(*n),
        };
        let (tx, rx) = mpsc::channel(CHANNEL_CHUNKS);
        let producer = Producer {
            tx,
            trickle: reply.trickle,
            fail_after: reply.fail_after,
            sent: 0,
            first: true,
        };
        let keep_open = reply.keep_open;
        let heartbeat = reply.heartbeat;
        let cancel = cancel.clone();
        tracker.spawn(async move {
            tokio::select! {
                _ = cancel.cancelled() => {}
                _ = producer.run(source, keep_open, heartbeat) => {}
            }
        });
        Self::Stream { rx, len }
    }
}

impl Body for ReplyBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        match self.get_mut() {
            Self::Full(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            Self::Stream { rx, .. } => rx
                .poll_recv(cx)
                .map(|piece| piece.map(|r| r.map(Frame::data))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, Self::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Self::Full(None) => SizeHint::with_exact(0),
            Self::Full(Some(b)) => SizeHint::with_exact(b.len() as u64),
            Self::Stream { len: Some(n), .. } => SizeHint::with_exact(*n),
            Self::Stream { len: None, .. } => SizeHint::default(),
        }
    }
}

enum Source {
    Bytes(Bytes),
    Huge(u64),
    Sse(Arc<[SseEvent]>),
    Live(mpsc::Receiver<Piece>),
}

/// Sends a body piece by piece, applying trickle and abort.
struct Producer {
    tx: mpsc::Sender<Piece>,
    trickle: Option<(usize, Duration)>,
    fail_after: Option<u64>,
    sent: u64,
    first: bool,
}

/// Why a producer stopped early.
enum Stop {
    ClientGone,
    Aborted,
}

impl Producer {
    async fn run(mut self, source: Source, keep_open: bool, heartbeat: Option<Duration>) {
        if self.send_source(source).await.is_err() {
            return;
        }
        if self.fail_after.is_some_and(|n| self.sent >= n) {
            let _ = self.abort().await;
            return;
        }
        if !keep_open {
            return;
        }
        match heartbeat {
            None => self.tx.closed().await,
            Some(every) => loop {
                tokio::select! {
                    _ = self.tx.closed() => return,
                    _ = tokio::time::sleep(every) => {
                        if self.send(Bytes::from_static(b": keep-alive\n\n")).await.is_err() {
                            return;
                        }
                    }
                }
            },
        }
    }

    async fn send_source(&mut self, source: Source) -> Result<(), Stop> {
        match source {
            Source::Bytes(bytes) => self.send(bytes).await,
            Source::Huge(mut remaining) => {
                while remaining > 0 {
                    let n = usize::try_from(remaining).map_or(MAX_CHUNK, |r| r.min(MAX_CHUNK));
                    self.send(Bytes::from_static(&FILL[..n])).await?;
                    remaining -= n as u64;
                }
                Ok(())
            }
            Source::Sse(events) => {
                for event in events.iter() {
                    if !event.delay().is_zero() {
                        tokio::select! {
                            _ = self.tx.closed() => return Err(Stop::ClientGone),
                            _ = tokio::time::sleep(event.delay()) => {}
                        }
                    }
                    self.send(event.encode()).await?;
                }
                Ok(())
            }
            Source::Live(mut rx) => loop {
                let piece = tokio::select! {
                    _ = self.tx.closed() => return Err(Stop::ClientGone),
                    piece = rx.recv() => piece,
                };
                match piece {
                    None => return Ok(()),
                    Some(Ok(bytes)) => self.send(bytes).await?,
                    Some(Err(e)) => {
                        let _ = self.tx.send(Err(e)).await;
                        return Err(Stop::Aborted);
                    }
                }
            },
        }
    }

    /// Sends `bytes`, split by the trickle size (or [`MAX_CHUNK`]), stopping at `fail_after`.
    async fn send(&mut self, mut bytes: Bytes) -> Result<(), Stop> {
        let piece = self.trickle.map_or(MAX_CHUNK, |(n, _)| n);
        while !bytes.is_empty() {
            let mut take = piece.min(bytes.len());
            if let Some(limit) = self.fail_after {
                let left = limit.saturating_sub(self.sent);
                if left == 0 {
                    return self.abort().await;
                }
                take = take.min(usize::try_from(left).unwrap_or(usize::MAX));
            }
            if let Some((_, interval)) = self.trickle {
                // A zero interval means "as fast as possible": even sleep(0) waits a timer tick.
                if !self.first && !interval.is_zero() {
                    tokio::time::sleep(interval).await;
                }
            }
            self.first = false;
            let chunk = bytes.split_to(take);
            self.sent += chunk.len() as u64;
            self.tx
                .send(Ok(chunk))
                .await
                .map_err(|_| Stop::ClientGone)?;
        }
        Ok(())
    }

    async fn abort(&mut self) -> Result<(), Stop> {
        let _ = self
            .tx
            .send(Err(io::Error::new(
                io::ErrorKind::ConnectionAborted,
                "simweb: body aborted by fail_after",
            )))
            .await;
        Err(Stop::Aborted)
    }
}
