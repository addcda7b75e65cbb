//! A TCP relay in front of the gateway, for the one failure the fake's own socket cannot make:
//! a connection *reset* (RST). serenity 0.12.5 treats a reset (an I/O error on read) apart
//! from a close: it resumes at once, inside its read, and announces the shard's new stage
//! (`Resuming`) with a `ShardStageUpdate` event before the RESUMED arrives; a close frame or
//! an op 7 makes it resume without announcing anything until it is connected again.
//!
//! [`super::FakeDiscord::relay_gateway`] starts it and hands out its address from
//! `GET /gateway` from then on; [`super::FakeDiscord::reset_gateway`] resets every connection
//! going through it (bot side), the fake's side being closed as well.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// The relay's address and the switch that resets the connections open now.
pub(crate) struct Relay {
    pub addr: SocketAddr,
    /// Bumped to reset every connection opened before.
    pub resets: watch::Sender<u64>,
}

impl Relay {
    /// Listens on loopback and relays each connection to `upstream` until the fake stops.
    pub async fn start(upstream: SocketAddr, mut stop: watch::Receiver<bool>) -> Arc<Relay> {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .expect("fake discord relay: bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("fake discord relay: address");
        let (resets, _) = watch::channel(0u64);
        let relay = Arc::new(Relay { addr, resets });
        let r = relay.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = stop.wait_for(|s| *s) => return,
                    accepted = listener.accept() => {
                        let Ok((client, _)) = accepted else { continue };
                        let resets = r.resets.subscribe();
                        tokio::spawn(pipe(client, upstream, resets));
                    }
                }
            }
        });
        relay
    }
}

/// Copies both ways between the bot and the fake until either ends, or a reset is asked:
/// then the bot's side is reset (SO_LINGER 0: the close sends RST, not FIN).
async fn pipe(mut client: TcpStream, upstream: SocketAddr, mut resets: watch::Receiver<u64>) {
    let Ok(mut server) = TcpStream::connect(upstream).await else {
        return;
    };
    resets.borrow_and_update();
    tokio::select! {
        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
        _ = resets.changed() => {
            // A zero linger does not block the close: the kernel drops the connection with RST.
            #[allow(deprecated)]
            let _ = client.set_linger(Some(Duration::ZERO));
            drop(client);
            drop(server);
        }
    }
}
