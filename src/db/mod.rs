//! Everything that talks to PostgreSQL: the SQL registry, the read
//! snapshot, the fleet-wide scans, the guarded transition, the schema and
//! `doctor` checks. Statements come from [`sql`] only, with bound
//! parameters only; rows come back as `model` types.

pub mod approvals;
pub mod columns;
pub mod complete;
pub mod connect;
pub mod deployment_id;
pub mod doctor;
pub mod errors;
pub mod fleet;
pub mod history;
pub mod locks;
pub mod schema_check;
pub mod session;
pub mod snapshot;
pub mod sql;
pub mod stuck;
pub mod target;
pub mod text;
pub mod transition;
