//! The toolchain: the workspace's `rust-version` is the one place that names it; the
//! Dockerfile's build stage must use exactly that release, and no locked dependency may need
//! a newer one. The dependencies' needs come from `cargo metadata --offline` (the registry
//! cache the build just filled), filtered to this host so no other platform's crates are
//! needed.

use std::process::Command;

use serde_json::Value;

use super::test_files::{stdout_of, top};

/// `1.89` or `1.89.0` as (major, minor, patch).
fn version(text: &str) -> (u32, u32, u32) {
    let mut parts = text
        .split('.')
        .map(|p| p.parse::<u32>().unwrap_or_else(|e| panic!("{text:?}: {e}")));
    let major = parts.next().unwrap();
    let minor = parts.next().unwrap_or_else(|| panic!("{text:?}: no minor"));
    (major, minor, parts.next().unwrap_or(0))
}

/// `[workspace.package] rust-version` of the top Cargo.toml.
fn workspace_rust_version() -> String {
    let text = std::fs::read_to_string(top().join("Cargo.toml")).unwrap();
    let doc: toml::Table = toml::from_str(&text).unwrap();
    doc["workspace"]["package"]["rust-version"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The Rust release of the Dockerfile's build stage (`FROM rust:1.89-slim-bookworm AS build`).
fn dockerfile_rust_version() -> String {
    let text = std::fs::read_to_string(top().join("Dockerfile")).unwrap();
    let from = text
        .lines()
        .find_map(|l| l.strip_prefix("FROM rust:"))
        .expect("the build stage is FROM rust:VERSION-…");
    from.split(['-', ' ']).next().unwrap().to_owned()
}

/// Every package of the locked graph built on this host: (name, version, rust-version).
fn locked_packages() -> Vec<(String, String, Option<String>)> {
    let rustc = stdout_of(Command::new("rustc").arg("-vV"));
    let host = String::from_utf8_lossy(&rustc)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = stdout_of(
        Command::new(cargo)
            .current_dir(top())
            .args(["metadata", "--format-version", "1", "--locked", "--offline"])
            .args(["--filter-platform", &host]),
    );
    let meta: Value = serde_json::from_slice(&out).unwrap();
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_owned(),
                p["version"].as_str().unwrap().to_owned(),
                p["rust_version"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

#[test]
fn the_dockerfile_builds_with_the_workspace_toolchain() {
    let workspace = workspace_rust_version();
    let docker = dockerfile_rust_version();
    assert_eq!(
        version(&docker),
        version(&workspace),
        "Dockerfile rust:{docker} vs Cargo.toml rust-version {workspace}"
    );
}

#[test]
fn no_locked_dependency_needs_a_newer_toolchain_than_the_workspace() {
    let workspace = version(&workspace_rust_version());
    let packages = locked_packages();
    // The graph is a few hundred crates; a handful would mean the metadata was not read.
    assert!(packages.len() > 100, "{} packages", packages.len());
    let declared = packages.iter().filter(|p| p.2.is_some()).count();
    assert!(
        declared > 50,
        "only {declared} packages declare a rust-version"
    );
    let newer: Vec<String> = packages
        .iter()
        .filter_map(|(name, ver, need)| {
            let need = need.as_deref()?;
            (version(need) > workspace).then(|| format!("{name} {ver} needs {need}"))
        })
        .collect();
    assert!(
        newer.is_empty(),
        "raise rust-version in Cargo.toml and the Dockerfile: {newer:?}"
    );
}

#[test]
fn versions_compare_as_numbers() {
    assert!(version("1.89") > version("1.88.0"));
    assert!(version("1.100") > version("1.99.9"));
    assert_eq!(version("1.89"), version("1.89.0"));
}
