//! What makes a run citable: the build, the public suffix list and a checksum of each input
//! list, recorded in the run's manifest and carried by its exports.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use mcpcensus_store::{InputChecksum, Provenance};
use xxhash_rust::xxh3::Xxh3;

use super::Source;

/// The `psl` crate's version: it is released with each update of the public suffix list, so
/// it names the list compiled in. A test keeps it equal to Cargo.lock's.
pub const PSL_CRATE_VERSION: &str = "2.1.247";
const CHECKSUM_CHUNK_BYTES: usize = 1 << 20;
/// The target and profile this binary was built for (build.rs): a debug build's timings differ.
pub const BUILD: &str = env!("MCPCENSUS_BUILD");

/// The provenance of a run over `sources`. Files are read once more for their checksums
/// (XXH3 runs at memory speed, so this costs about a read of the lists).
pub fn provenance(sources: &[Source]) -> io::Result<Provenance> {
    let inputs = sources
        .iter()
        .map(|s| match s {
            Source::Stdin => Ok(InputChecksum {
                input: "-".into(),
                bytes: None,
                xxh3_64: None,
                lines: None,
            }),
            Source::File(path) => checksum(path),
        })
        .collect::<io::Result<_>>()?;
    Ok(Provenance {
        mcpcensus_version: format!("mcpcensus {}", env!("CARGO_PKG_VERSION")),
        build: BUILD.to_owned(),
        public_suffix_list: format!("psl crate {PSL_CRATE_VERSION}"),
        inputs,
    })
}

fn checksum(path: &Path) -> io::Result<InputChecksum> {
    let mut file = File::open(path)?;
    let mut hasher = Xxh3::new();
    let mut buf = vec![0u8; CHECKSUM_CHUNK_BYTES];
    let mut bytes = 0u64;
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buf[..n]);
        bytes += n as u64;
    }
    Ok(InputChecksum {
        input: path.display().to_string(),
        bytes: Some(bytes),
        xxh3_64: Some(format!("{:016x}", hasher.digest())),
        lines: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn psl_version_is_the_locked_one() {
        let lock = include_str!("../../../Cargo.lock");
        let locked = lock
            .split("[[package]]")
            .find(|p| p.contains("\nname = \"psl\"\n"))
            .and_then(|p| p.split("version = \"").nth(1))
            .and_then(|v| v.split('"').next());
        assert_eq!(locked, Some(PSL_CRATE_VERSION));
    }

    #[test]
    fn inputs_are_checksummed_and_stdin_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        std::fs::write(&a, "example.com\n").unwrap();
        let b = dir.path().join("b.txt");
        std::fs::write(&b, "example.org\n").unwrap();
        let p = provenance(&[Source::File(a.clone()), Source::File(b), Source::Stdin]).unwrap();
        assert_eq!(p.inputs[0].bytes, Some(12));
        assert_eq!(
            p.inputs[0].xxh3_64,
            Some(format!(
                "{:016x}",
                xxhash_rust::xxh3::xxh3_64(b"example.com\n")
            ))
        );
        assert_ne!(p.inputs[0].xxh3_64, p.inputs[1].xxh3_64);
        assert_eq!((p.inputs[2].input.as_str(), p.inputs[2].bytes), ("-", None));
        assert!(p.mcpcensus_version.starts_with("mcpcensus "));
        assert!(
            p.build.ends_with(" debug") || p.build.ends_with(" release"),
            "{}",
            p.build
        );
        assert!(provenance(&[Source::File(dir.path().join("missing"))]).is_err());
    }
}
