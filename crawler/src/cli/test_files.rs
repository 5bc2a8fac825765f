//! For the tests that read the repository's files or run a program: where the repository is,
//! and a program's standard output once it succeeded.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's top folder.
pub fn top() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `cmd`; its standard output, or a panic with its standard error.
pub fn stdout_of(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
