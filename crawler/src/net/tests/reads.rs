//! Reads handed to hyper are capped (`connector::poll_read_at_most`): hyper's read buffer grows
//! for good after one read fills it.

use std::pin::Pin;

use tokio::io::{AsyncRead, AsyncWriteExt, ReadBuf};

use crate::net::connector::{poll_read_at_most, MAX_READ};

/// One capped read into `room` bytes of space.
async fn read_once<R: AsyncRead + Unpin>(io: &mut R, room: usize, max: usize) -> Vec<u8> {
    let mut space = vec![0u8; room];
    let mut buf = ReadBuf::new(&mut space);
    std::future::poll_fn(|cx| poll_read_at_most(Pin::new(&mut *io), cx, &mut buf, max))
        .await
        .expect("read");
    buf.filled().to_vec()
}

#[tokio::test]
async fn a_read_never_hands_over_more_than_the_cap_and_loses_nothing() {
    let sent: Vec<u8> = (0..40_000u32).map(|i| (i % 251) as u8).collect();
    let (mut ours, mut theirs) = tokio::io::duplex(64 * 1024);
    theirs.write_all(&sent).await.expect("write");
    drop(theirs);
    let mut got = Vec::new();
    loop {
        // hyper offers its whole free space (16 KiB once grown); the cap holds regardless.
        let part = read_once(&mut ours, 16 * 1024, MAX_READ).await;
        assert!(part.len() <= MAX_READ, "{} bytes in one read", part.len());
        if part.is_empty() {
            break;
        }
        got.extend_from_slice(&part);
    }
    assert_eq!(got, sent);
}

#[tokio::test]
async fn room_smaller_than_the_cap_is_filled_as_usual() {
    let (mut ours, mut theirs) = tokio::io::duplex(64 * 1024);
    theirs.write_all(&[7u8; 3000]).await.expect("write");
    let part = read_once(&mut ours, 1000, MAX_READ).await;
    assert_eq!(part, vec![7u8; 1000]);
    let part = read_once(&mut ours, MAX_READ, MAX_READ).await;
    assert_eq!(part, vec![7u8; 2000]);
}
