//! The connection a session runs on (README, "Connecting"): the protocol
//! driver the postgres crate sits on (tokio-postgres), on a runtime of its
//! own and driven from this thread, so that a read can send its
//! transaction's first message, its statements and its COMMIT in ONE
//! flight ([`Link::pipeline`], README "Performance") where the postgres
//! crate sends one message and waits for its answer. Every other use is
//! the crate's: one message, its answer, then the next.
//!
//! A link is also made from a postgres crate client (the tests' own
//! connections): there a pipeline is sent one message at a time, with the
//! same answers, one round trip each.

use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::task::Poll;
use std::time::Duration;

use futures_util::Stream;
use postgres::types::{ToSql, Type};
use postgres::{Error, Row, SimpleQueryMessage};

use postgres::fallible_iterator::FallibleIterator;
use tokio::runtime::Runtime;
use tokio_postgres::tls::{MakeTlsConnect, TlsConnect};
use tokio_postgres::{AsyncMessage, RowStream, Socket};

use crate::db::sql::{BoxRows, Conn, Wire};

/// What the driver's connection yields: notices and notifications, which
/// nobody here listens to, until it ends.
type Messages = Pin<Box<dyn Stream<Item = Result<AsyncMessage, Error>> + Send>>;

/// An open connection.
pub struct Link(pub(super) Inner);

pub(super) enum Inner {
    Driven(Driven),
    Crate(postgres::Client),
}

/// The driver's client and what drives its connection. The client is
/// dropped first (its field comes first): that closes the request channel,
/// and the connection then sends Terminate when [`Ends`] drives it out.
pub(super) struct Driven {
    pub(super) client: tokio_postgres::Client,
    pub(super) ends: Ends,
}

/// The runtime and the connection's half of the driver.
pub(super) struct Ends {
    pub(super) runtime: Runtime,
    /// None once the connection ended: every request still waiting then
    /// sees the driver's "connection closed".
    connection: Option<Messages>,
    /// Why it ended, when the driver said (more telling than "closed").
    broke: Option<Error>,
}

/// The runtime a link is driven on: one thread, this one.
pub fn runtime() -> std::io::Result<Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

impl Link {
    /// Connects with `config` on `runtime` (what the postgres crate's
    /// `Config::connect` does, with the same errors).
    pub fn connect<T>(
        runtime: Runtime,
        config: &tokio_postgres::Config,
        tls: T,
    ) -> Result<Link, Error>
    where
        T: MakeTlsConnect<Socket> + 'static + Send,
        T::TlsConnect: Send,
        T::Stream: Send,
        <T::TlsConnect as TlsConnect<Socket>>::Future: Send,
    {
        let (client, mut connection) = runtime.block_on(config.connect(tls))?;
        let connection: Messages = Box::pin(futures_util::stream::poll_fn(move |cx| {
            connection.poll_message(cx)
        }));
        Ok(Link(Inner::Driven(Driven {
            client,
            ends: Ends {
                runtime,
                connection: Some(connection),
                broke: None,
            },
        })))
    }

    /// Runs several statements without parameters in one message.
    pub fn simple_query(&mut self, text: &str) -> Result<Vec<SimpleQueryMessage>, Error> {
        match &mut self.0 {
            Inner::Driven(d) => d.ends.block_on(pin!(d.client.simple_query(text))),
            Inner::Crate(client) => client.simple_query(text),
        }
    }

    /// [`Link::simple_query`] without the answers.
    pub fn batch_execute(&mut self, text: &str) -> Result<(), Error> {
        match &mut self.0 {
            Inner::Driven(d) => d.ends.block_on(pin!(d.client.batch_execute(text))),
            Inner::Crate(client) => client.batch_execute(text),
        }
    }

    /// Prepares `text` and runs it (a round trip more than a typed query):
    /// for the tests, which look at a session from outside.
    pub fn execute(&mut self, text: &str, params: &[&(dyn ToSql + Sync)]) -> Result<u64, Error> {
        match &mut self.0 {
            Inner::Driven(d) => d.ends.block_on(pin!(d.client.execute(text, params))),
            Inner::Crate(client) => client.execute(text, params),
        }
    }

    /// [`Link::execute`]'s rows.
    pub fn query(&mut self, text: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Row>, Error> {
        match &mut self.0 {
            Inner::Driven(d) => d.ends.block_on(pin!(d.client.query(text, params))),
            Inner::Crate(client) => client.query(text, params),
        }
    }

    /// [`Link::query`]'s one row.
    pub fn query_one(&mut self, text: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Row, Error> {
        match &mut self.0 {
            Inner::Driven(d) => d.ends.block_on(pin!(d.client.query_one(text, params))),
            Inner::Crate(client) => client.query_one(text, params),
        }
    }

    pub fn is_closed(&self) -> bool {
        match &self.0 {
            Inner::Driven(d) => d.client.is_closed(),
            Inner::Crate(client) => client.is_closed(),
        }
    }
}

/// A session over the tests' own connection.
impl From<postgres::Client> for Link {
    fn from(client: postgres::Client) -> Link {
        Link(Inner::Crate(client))
    }
}

impl Ends {
    /// Drives the connection and `future` until the future is done. When
    /// the connection ends first, the future still gets what arrived
    /// before (a pooler's last word, say), then the driver's "closed".
    pub(super) fn block_on<T>(
        &mut self,
        mut future: Pin<&mut impl Future<Output = Result<T, Error>>>,
    ) -> Result<T, Error> {
        let Ends {
            runtime,
            connection,
            broke,
        } = self;
        let result = runtime.block_on(poll_fn(|cx| {
            drive(connection, broke, cx);
            future.as_mut().poll(cx)
        }));
        match result {
            Err(err) if err.is_closed() => Err(broke.take().unwrap_or(err)),
            other => other,
        }
    }
}

/// Polls the connection until it waits; when it ends, keeps why and lets
/// it go (its requests still waiting then see "closed").
fn drive(
    connection: &mut Option<Messages>,
    broke: &mut Option<Error>,
    cx: &mut std::task::Context<'_>,
) {
    while let Some(messages) = connection.as_mut() {
        match messages.as_mut().poll_next(cx) {
            // Notices and notifications: nobody listens.
            Poll::Ready(Some(Ok(_))) => {}
            Poll::Ready(Some(Err(err))) => {
                *broke = Some(err);
                *connection = None;
            }
            Poll::Ready(None) => *connection = None,
            Poll::Pending => return,
        }
    }
}

impl Drop for Ends {
    /// The client is gone: the connection sends Terminate and shuts its
    /// side. Bounded: a peer that stopped reading does not hold the exit.
    fn drop(&mut self) {
        let Ends {
            runtime,
            connection,
            broke,
        } = self;
        let _ = runtime.block_on(async {
            tokio::time::timeout(
                Duration::from_secs(1),
                poll_fn(|cx| {
                    drive(connection, broke, cx);
                    if connection.is_none() {
                        Poll::Ready(())
                    } else {
                        Poll::Pending
                    }
                }),
            )
            .await
        });
    }
}

impl Wire for Link {
    fn query_typed(
        &mut self,
        text: &str,
        params: &[(&(dyn ToSql + Sync), Type)],
    ) -> Result<Vec<Row>, Error> {
        match &mut self.0 {
            Inner::Driven(d) => d.ends.block_on(pin!(d.client.query_typed(text, params))),
            Inner::Crate(client) => client.query_typed(text, params),
        }
    }

    fn query_typed_raw(
        &mut self,
        text: &str,
        params: Vec<(&(dyn ToSql + Sync), Type)>,
    ) -> Result<BoxRows<'_>, Error> {
        match &mut self.0 {
            Inner::Driven(d) => {
                let stream = d
                    .ends
                    .block_on(pin!(d.client.query_typed_raw(text, params)))?;
                Ok(Box::new(live(&mut d.ends, stream)))
            }
            Inner::Crate(client) => Ok(Box::new(client.query_typed_raw(text, params)?)),
        }
    }
}

impl Conn for Link {
    type Wire = Link;

    fn client(&mut self) -> &mut Link {
        self
    }
}

pub(super) fn live(ends: &mut Ends, stream: RowStream) -> PipelineRows<'_> {
    PipelineRows(Rows::Live {
        ends,
        stream: Box::pin(stream),
    })
}

/// A statement's rows, as the driver reads them (or held).
pub struct PipelineRows<'p>(pub(super) Rows<'p>);

pub(super) enum Rows<'p> {
    Live {
        ends: &'p mut Ends,
        stream: Pin<Box<RowStream>>,
    },
    Held(std::vec::IntoIter<Row>),
}

impl FallibleIterator for PipelineRows<'_> {
    type Item = Row;
    type Error = Error;

    fn next(&mut self) -> Result<Option<Row>, Error> {
        match &mut self.0 {
            Rows::Live { ends, stream } => {
                let next = poll_fn(|cx| stream.as_mut().poll_next(cx).map(Ok));
                ends.block_on(pin!(next)).and_then(|row| row.transpose())
            }
            Rows::Held(rows) => Ok(rows.next()),
        }
    }
}
