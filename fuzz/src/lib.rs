//! What the fuzz targets share: a content type chosen by the input's first byte.

/// Content types an AI catalog is read under.
pub const CATALOG_TYPES: [Option<&str>; 4] = [
    None,
    Some("application/json"),
    Some("text/html"),
    Some("application/linkset+json"),
];

/// Content types a server card or manifest is read under.
pub const CARD_TYPES: [Option<&str>; 4] = [
    None,
    Some("application/json"),
    Some("text/html; charset=utf-8"),
    Some("text/plain"),
];

/// The content type the first byte picks from `types`, and the body after it.
pub fn typed_body<'a>(
    data: &'a [u8],
    types: &[Option<&'static str>],
) -> Option<(Option<&'static str>, &'a [u8])> {
    let (&first, body) = data.split_first()?;
    Some((types[usize::from(first) % types.len()], body))
}
