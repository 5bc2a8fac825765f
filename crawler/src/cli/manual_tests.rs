//! `mcpcensus completions SHELL` and `mcpcensus man`: generated from the parser, so they know
//! every command and flag; bash's script is run the way bash runs it on Tab.

use std::process::Command;

use clap_complete::Shell;

use super::manual::{write_completions, write_man};
use super::test_files::stdout_of;

fn completions(shell: Shell) -> String {
    let mut out = Vec::new();
    write_completions(shell, &mut out);
    String::from_utf8(out).unwrap()
}

/// What bash offers on Tab after `words` (the last one is the word being completed).
fn bash_offers(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let line = words.join(" ");
    let cword = words.len() - 1;
    let prev = if cword > 0 { words[cword - 1] } else { "" };
    let program = format!(
        "source {script}\nCOMP_WORDS=({line})\nCOMP_CWORD={cword}\nCOMP_LINE='{line}'\n\
         COMP_POINT=${{#COMP_LINE}}\n_mcpcensus mcpcensus '{cur}' '{prev}'\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script = script.display(),
        cur = words[cword],
    );
    let out = stdout_of(Command::new("bash").args(["--norc", "-c", &program]));
    String::from_utf8_lossy(&out)
        .lines()
        .map(|l| l.trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn bash_completes_commands_and_each_commands_flags() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("mcpcensus.bash");
    std::fs::write(&script, completions(Shell::Bash)).unwrap();
    let check = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert!(check.status.success(), "not valid bash");
    let offers = bash_offers(&script, &["mcpcensus", "c"]);
    for command in ["crawl", "check", "completions"] {
        assert!(offers.iter().any(|o| o == command), "{command}: {offers:?}");
    }
    let offers = bash_offers(&script, &["mcpcensus", "crawl", "--resume-o"]);
    assert_eq!(offers, ["--resume-or-start"]);
    let offers = bash_offers(&script, &["mcpcensus", "report", "--con"]);
    assert_eq!(offers, ["--config"]);
}

#[test]
fn every_shell_gets_a_script_naming_every_command() {
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::Elvish,
        Shell::PowerShell,
    ] {
        let text = completions(shell);
        for word in [
            "crawl",
            "report",
            "runs",
            "completions",
            "man",
            "site-deadline",
        ] {
            assert!(text.contains(word), "{shell}: no {word}");
        }
    }
}

#[test]
fn the_man_page_renders_every_command_and_flag() {
    let mut out = Vec::new();
    write_man(&mut out).unwrap();
    let roff = String::from_utf8(out).unwrap();
    assert!(roff.contains(".TH mcpcensus 1"));
    // Rendered as man renders it (groff's plain-text output).
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("mcpcensus.1");
    std::fs::write(&page, &roff).unwrap();
    let out = stdout_of(
        Command::new("groff")
            .args(["-man", "-Tutf8", "-P", "-cbou"])
            .arg(&page),
    );
    let text = String::from_utf8_lossy(&out).replace(['\u{2010}', '\u{2212}'], "-");
    for section in ["NAME", "SYNOPSIS", "MCPCENSUS CRAWL", "MCPCENSUS EXPORT"] {
        assert!(text.contains(section), "no {section}:\n{text}");
    }
    for flag in [
        "--resume-or-start",
        "--site-deadline",
        "--config",
        "--rescan-older-than",
    ] {
        assert!(text.contains(flag), "no {flag}:\n{text}");
    }
}
