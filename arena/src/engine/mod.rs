//! Engine processes: the [`transport`] to a child process (or a script, in tests), the
//! [`uci`] and [`xboard`] clients, the [`client::EngineClient`] that hides which one plays,
//! and the [`spec::EngineSpec`] that starts one. What both clients answer the game loop is in
//! [`reply`], so neither client imports the client that wraps them.

pub mod client;
pub mod reply;
pub mod spec;
pub mod transport;
pub mod uci;
pub mod xboard;
