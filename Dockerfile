# syntax=docker/dockerfile:1
# Tegami's container image: the bot in a small Debian runtime, as an unprivileged user, its
# SQLite database (when it has no DATABASE_URL) in the volume /data.
#
#   docker build -t tegami .
#   docker run -e DISCORD_TOKEN=... -v tegami-data:/data tegami
#
# The build fetches the crates of Cargo.lock from crates.io (the one registry it needs; no
# other network). Fonts and images are in the repository and built into the binary.

FROM rust:1.95-slim-trixie AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
# The build settings (the processor level the engine is compiled for, see the file).
COPY .cargo .cargo
COPY src src
COPY migrations migrations
COPY locales locales
COPY assets assets
COPY benches benches
COPY tests tests
COPY config.example.toml README.md ./
# The registry and the build folder are cached between builds (BuildKit). The image's binary
# carries no debug information (the release profile keeps some for profiling): 29 MB, not 170.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_STRIP=symbols \
    cargo build --release --locked --bin tegami \
    && cp target/release/tegami /usr/local/bin/tegami

FROM debian:trixie-slim
# ca-certificates: PostgreSQL's sslmode=verify-full checks the server against the system's roots.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin tegami \
    && mkdir -p /data /etc/tegami \
    && chown tegami /data
COPY --from=build /usr/local/bin/tegami /usr/local/bin/tegami
COPY config.example.toml /etc/tegami/config.example.toml
USER tegami
# The database file `tegami.db` (the config's default, relative to here) lives in the volume.
WORKDIR /data
VOLUME /data
ENTRYPOINT ["tegami"]
CMD ["run"]
