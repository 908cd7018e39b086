//! One flight of messages on a [`Link`] (README, "Performance"): every
//! message sent before any answer is read, the answers handed out in the
//! order the messages went. Over a postgres crate client (the tests' own)
//! the messages go one at a time, with the same answers.

use std::collections::VecDeque;
use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::task::Poll;

use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{ToSql, Type};
use postgres::{Error, Row, SimpleQueryMessage};
use tokio_postgres::RowStream;

use super::link::{Ends, Inner, Link, PipelineRows, Rows, live};

/// A value bound to a statement's parameter, owned by the message that
/// carries it (it travels after the call that made it has returned).
pub type Arg = Box<dyn ToSql + Sync + Send>;

/// A statement's values with their declared types, as sent.
pub type Typed = Vec<(Arg, Type)>;

/// The values as the driver takes them.
fn borrowed(params: &Typed) -> Vec<(&(dyn ToSql + Sync), Type)> {
    params
        .iter()
        .map(|(value, ty)| (value.as_ref() as &(dyn ToSql + Sync), ty.clone()))
        .collect()
}

impl Link {
    /// Sends every message of `messages` at once, without waiting for an
    /// answer in between (README, "Performance"): the server answers them
    /// in order, and [`Pipeline`] hands the answers out in that order. The
    /// server runs each message whatever the answer to the one before was
    /// (in a transaction an error aborts it, so the statements after it
    /// fail and its COMMIT rolls back).
    pub fn pipeline(&mut self, messages: Vec<Message>) -> Pipeline<'_> {
        match &mut self.0 {
            Inner::Driven(d) => {
                let client = &d.client;
                let mut waiting: VecDeque<Waiting<'_>> =
                    messages.into_iter().map(|m| m.send(client)).collect();
                // The first poll of each queues its request, in order; the
                // connection then writes them all before it reads.
                d.ends.runtime.block_on(poll_fn(|cx| {
                    for message in waiting.iter_mut() {
                        message.start(cx);
                    }
                    Poll::Ready(())
                }));
                Pipeline(Queue::Driven {
                    ends: &mut d.ends,
                    waiting,
                })
            }
            Inner::Crate(client) => Pipeline(Queue::Held(
                messages.into_iter().map(|m| m.run(client)).collect(),
            )),
        }
    }
}

/// One message of a pipeline.
pub enum Message {
    /// Statements without parameters, in one simple-protocol message.
    Simple(String),
    /// One statement with its bound values (extended protocol).
    Bound { text: String, params: Typed },
}

/// A message's answer.
pub enum Answer {
    Simple(Vec<SimpleQueryMessage>),
    Rows(Vec<Row>),
}

type Boxed<'a, T> = Pin<Box<dyn Future<Output = Result<T, Error>> + 'a>>;

/// A message sent and not yet answered.
enum Waiting<'a> {
    Simple(Boxed<'a, Vec<SimpleQueryMessage>>),
    Bound(Boxed<'a, RowStream>),
    /// Answered on its first poll (only an error can be).
    Failed(Error),
    /// Its rows began to arrive on its first poll.
    Streaming(RowStream),
    /// Its whole answer came on its first poll.
    Done(Vec<SimpleQueryMessage>),
}

impl Message {
    /// The message as the driver's request (sent on its first poll).
    fn send(self, client: &tokio_postgres::Client) -> Waiting<'_> {
        match self {
            Message::Simple(text) => {
                Waiting::Simple(Box::pin(async move { client.simple_query(&text).await }))
            }
            Message::Bound { text, params } => Waiting::Bound(Box::pin(async move {
                client.query_typed_raw(&text, borrowed(&params)).await
            })),
        }
    }

    /// The message run on a crate client, answer and all.
    fn run(self, client: &mut postgres::Client) -> Result<Answer, Error> {
        match self {
            Message::Simple(text) => client.simple_query(&text).map(Answer::Simple),
            Message::Bound { text, params } => client
                .query_typed(&text, &borrowed(&params))
                .map(Answer::Rows),
        }
    }
}

impl Waiting<'_> {
    /// The first poll: the request goes into the driver's queue.
    fn start(&mut self, cx: &mut std::task::Context<'_>) {
        let now = match self {
            Waiting::Simple(future) => match future.as_mut().poll(cx) {
                Poll::Ready(Ok(answer)) => Waiting::Done(answer),
                Poll::Ready(Err(err)) => Waiting::Failed(err),
                Poll::Pending => return,
            },
            Waiting::Bound(future) => match future.as_mut().poll(cx) {
                Poll::Ready(Ok(stream)) => Waiting::Streaming(stream),
                Poll::Ready(Err(err)) => Waiting::Failed(err),
                Poll::Pending => return,
            },
            _ => return,
        };
        *self = now;
    }
}

/// The answers of [`Link::pipeline`], in the order the messages went.
/// Dropped early, the answers not taken are read and dropped by the
/// driver.
pub struct Pipeline<'a>(Queue<'a>);

enum Queue<'a> {
    Driven {
        ends: &'a mut Ends,
        waiting: VecDeque<Waiting<'a>>,
    },
    /// Over a crate client: every answer, already.
    Held(VecDeque<Result<Answer, Error>>),
}

impl Pipeline<'_> {
    /// The next message's answer, whole. None: no message is left.
    pub fn answer(&mut self) -> Option<Result<Answer, Error>> {
        let (ends, waiting) = match &mut self.0 {
            Queue::Held(answers) => return answers.pop_front(),
            Queue::Driven { ends, waiting } => (&mut **ends, waiting.pop_front()?),
        };
        Some(match waiting {
            Waiting::Simple(future) => ends.block_on(pin!(future)).map(Answer::Simple),
            Waiting::Done(answer) => Ok(Answer::Simple(answer)),
            Waiting::Failed(err) => Err(err),
            Waiting::Bound(future) => ends
                .block_on(pin!(future))
                .and_then(|stream| collect(ends, stream)),
            Waiting::Streaming(stream) => collect(ends, stream),
        })
    }

    /// The next message's rows as they arrive; a message without rows
    /// gives none. None: no message is left.
    pub fn rows(&mut self) -> Option<Result<PipelineRows<'_>, Error>> {
        let empty = || PipelineRows(Rows::Held(Vec::new().into_iter()));
        let (ends, waiting) = match &mut self.0 {
            Queue::Held(answers) => {
                return answers.pop_front().map(|answer| {
                    answer.map(|answer| match answer {
                        Answer::Rows(rows) => PipelineRows(Rows::Held(rows.into_iter())),
                        Answer::Simple(_) => empty(),
                    })
                });
            }
            Queue::Driven { ends, waiting } => (&mut **ends, waiting.pop_front()?),
        };
        Some(match waiting {
            Waiting::Bound(future) => ends.block_on(pin!(future)).map(|stream| live(ends, stream)),
            Waiting::Streaming(stream) => Ok(live(ends, stream)),
            Waiting::Failed(err) => Err(err),
            Waiting::Simple(future) => ends.block_on(pin!(future)).map(|_| empty()),
            Waiting::Done(_) => Ok(empty()),
        })
    }
}

/// Every row of `stream`.
fn collect(ends: &mut Ends, stream: RowStream) -> Result<Answer, Error> {
    let mut rows = live(ends, stream);
    let mut all = Vec::new();
    while let Some(row) = rows.next()? {
        all.push(row);
    }
    Ok(Answer::Rows(all))
}
