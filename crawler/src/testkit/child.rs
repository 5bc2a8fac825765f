//! Tests that must change the whole process (a low open-files limit) run in a child: this
//! test binary run again with only that test selected and a marker in its environment.

use std::process::Command;

/// Runs test `name` again in a child with `marker` set, and asserts it ran and passed.
pub fn pass_in_child(name: &str, marker: &str) {
    let out = Command::new(std::env::current_exe().expect("test binary"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(marker, "1")
        .output()
        .expect("run the child");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{text}");
    assert!(text.contains("1 passed"), "the child ran the test:\n{text}");
}
