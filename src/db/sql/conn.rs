//! What a statement of the registry runs on: a session, or a transaction
//! the tool pinned (`db::session::Pinned`). Both hand out the one
//! connection; the type says which the caller holds.

/// A connection statements can run on.
pub trait Conn {
    /// The connection itself.
    fn client(&mut self) -> &mut postgres::Client;
}

impl Conn for postgres::Client {
    fn client(&mut self) -> &mut postgres::Client {
        self
    }
}
