//! The negative control: one GET per origin of a path that cannot exist. A site that answers
//! it 2xx answers every path (a catch-all), so a 2xx elsewhere says nothing by itself; a body
//! the same as the control's is the catch-all's page, never the file asked for (the Web
//! Almanac's well-known metric asks such a path of every site for the same reason).

/// The control path's prefix; the rest is derived from the host, so the path is stable for a
/// site across runs (records compare) yet no site serves it by design.
const CONTROL_PREFIX: &str = "/mcpcensus-negative-control-";

/// The control's answer, as the checks compare with it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Control {
    /// It answered 2xx: the site answers paths that do not exist.
    pub catch_all: bool,
    /// Its body (when 2xx), to tell the catch-all's page from a real file.
    pub body: Vec<u8>,
}

/// The path asked as the control at `host`: the prefix and a 64-bit FNV-1a hash of the host in
/// hex, ending in `.txt` like the files it stands in for.
pub fn control_path(host: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in host.to_ascii_lowercase().bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{CONTROL_PREFIX}{hash:016x}.txt")
}

/// True when `body` (a 2xx answer elsewhere on the site) is the catch-all's answer: the control
/// answered 2xx with the same bytes.
pub fn same_as_control(control: Option<&Control>, body: &[u8]) -> bool {
    control.is_some_and(|c| c.catch_all && c.body == body)
}
