# mcpcensus in a container: a build stage with the Rust toolchain, and a small runtime stage
# (distroless: glibc and libgcc, no shell or package manager) running as a non-root user.
#   docker build -t mcpcensus .
#   docker run --rm -v "$PWD/lists:/lists:ro" -v mcpcensus-data:/data mcpcensus \
#     crawl /lists/domains.txt --out /data
# Trust roots are compiled in (webpki-roots), so the image needs no CA bundle.
# See configs/deploy/README.md.

# The toolchain is the workspace's rust-version (Cargo.toml), the oldest the lockfile builds
# with; crawler/src/cli/toolchain_tests.rs checks both.
FROM rust:1.89-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p mcpcensus --bin mcpcensus \
 && strip target/release/mcpcensus

FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /src/target/release/mcpcensus /usr/local/bin/mcpcensus
COPY configs/default.toml /etc/mcpcensus/default.toml
# 65532 is distroless's "nonroot" user; /data is where the store and the spool go.
USER 65532:65532
WORKDIR /data
VOLUME ["/data"]
ENTRYPOINT ["/usr/local/bin/mcpcensus"]
CMD ["--help"]
