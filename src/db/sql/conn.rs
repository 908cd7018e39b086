//! What a statement of the registry runs on: a session's link, a
//! transaction the tool pinned (`db::session::Pinned`), or a postgres crate
//! client of the tests' own. Each hands out its connection; the type says
//! which the caller holds.

use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{ToSql, Type};
use postgres::{Error, Row};

/// A connection statements can run on.
pub trait Conn {
    /// The connection's own type.
    type Wire: Wire;

    /// The connection itself.
    fn client(&mut self) -> &mut Self::Wire;
}

/// A statement's rows as they arrive.
pub type BoxRows<'c> = Box<dyn FallibleIterator<Item = Row, Error = Error> + 'c>;

/// What the registry asks of a connection: a statement with typed values,
/// parse, bind and execute sent together (one round trip).
pub trait Wire {
    fn query_typed(
        &mut self,
        text: &str,
        params: &[(&(dyn ToSql + Sync), Type)],
    ) -> Result<Vec<Row>, Error>;

    /// [`Wire::query_typed`]'s rows as they arrive.
    fn query_typed_raw(
        &mut self,
        text: &str,
        params: Vec<(&(dyn ToSql + Sync), Type)>,
    ) -> Result<BoxRows<'_>, Error>;
}

impl Wire for postgres::Client {
    fn query_typed(
        &mut self,
        text: &str,
        params: &[(&(dyn ToSql + Sync), Type)],
    ) -> Result<Vec<Row>, Error> {
        postgres::Client::query_typed(self, text, params)
    }

    fn query_typed_raw(
        &mut self,
        text: &str,
        params: Vec<(&(dyn ToSql + Sync), Type)>,
    ) -> Result<BoxRows<'_>, Error> {
        Ok(Box::new(postgres::Client::query_typed_raw(
            self, text, params,
        )?))
    }
}

impl Conn for postgres::Client {
    type Wire = postgres::Client;

    fn client(&mut self) -> &mut postgres::Client {
        self
    }
}
