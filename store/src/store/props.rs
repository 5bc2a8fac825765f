//! A frame round-trips: any record encodes, frames and decodes back to itself.

use proptest::prelude::*;
use rkyv::util::AlignedVec;

use super::frame::{decode, header, parse_header, FrameEncoder};
use crate::testutil::full_record;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn a_frame_round_trips(
        i in 0usize..64,
        input in any::<String>(),
        reason in any::<String>(),
        names in prop::collection::vec(any::<String>(), 0..8),
        tool_count in any::<Option<u32>>(),
        scanned_at in any::<u64>(),
    ) {
        let mut record = full_record("20260101T000000Z-abcdef", i);
        record.input = input;
        record.outcome_reason = reason;
        record.tool_names = names;
        record.tool_count = tool_count;
        record.scanned_at = scanned_at;
        let mut encoder = FrameEncoder::new();
        encoder.encode(&record).expect("a record encodes");
        let payload = encoder.payload();
        let (len, crc) = parse_header(&header(payload));
        prop_assert_eq!(len as usize, payload.len());
        prop_assert_eq!(crc, crc32fast::hash(payload));
        let mut aligned = AlignedVec::<16>::new();
        aligned.extend_from_slice(payload);
        prop_assert_eq!(decode(&aligned).expect("decodes"), record);
    }
}
