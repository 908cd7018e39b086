//! Every status the control plane's tables hold, as enums.
//!
//! The reference schema constrains each column to a fixed set, but the tool
//! talks to live databases it does not own: a value it does not know (a
//! newer control plane, schema drift) parses to `Unknown(text)` so it is
//! reported as it is, never a panic, and the decision fails closed on it.
//! A NULL (the reference schema says NOT NULL, a live one may not) reads
//! as `Null`: shown as `NULL` on the screen and `null` in JSON, and just as
//! unknown to the decision.
//! Text from the database becomes one of these in exactly one place
//! ([`FromSql`], via `parse`); the rest of the code compares enums.

use std::error::Error;
use std::fmt;

use postgres::types::{FromSql, Type};
use serde::{Serialize, Serializer};

/// Declares a status enum: its variants and their text in the database.
macro_rules! status_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
            /// A value this tool does not know, kept as read.
            Unknown(String),
            /// NULL, where the reference schema says NOT NULL.
            Null,
        }

        impl $name {
            /// Every known value, in the order of the schema's CHECK.
            pub const KNOWN: &'static [$name] = &[$($name::$variant),+];

            /// The enum for a value read from the database.
            pub fn parse(text: &str) -> $name {
                match text {
                    $($text => $name::$variant,)+
                    other => $name::Unknown(other.to_string()),
                }
            }

            /// The value as the database spells it.
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $text,)+
                    $name::Unknown(text) => text,
                    $name::Null => "NULL",
                }
            }

            /// Not one of the known values: an unknown text, or NULL.
            pub fn is_unknown(&self) -> bool {
                matches!(self, $name::Unknown(_) | $name::Null)
            }

            pub fn is_null(&self) -> bool {
                matches!(self, $name::Null)
            }
        }

        impl super::warning::Status for $name {
            fn as_str(&self) -> &str {
                $name::as_str(self)
            }

            fn is_unknown(&self) -> bool {
                $name::is_unknown(self)
            }

            fn is_null(&self) -> bool {
                $name::is_null(self)
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> $name {
                $name::parse(text)
            }
        }

        /// Compares with the database's spelling (`status == "queued"`).
        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                !self.is_null() && self.as_str() == *other
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    $name::Null => serializer.serialize_none(),
                    other => serializer.serialize_str(other.as_str()),
                }
            }
        }

        impl<'a> FromSql<'a> for $name {
            fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<$name, Box<dyn Error + Sync + Send>> {
                <&str as FromSql>::from_sql(ty, raw).map($name::parse)
            }

            fn from_sql_null(_: &Type) -> Result<$name, Box<dyn Error + Sync + Send>> {
                Ok($name::Null)
            }

            fn accepts(ty: &Type) -> bool {
                <&str as FromSql>::accepts(ty)
            }
        }
    };
}

status_enum! {
    /// `deployments.status`.
    DeploymentStatus {
        Queued => "queued",
        Building => "building",
        Deploying => "deploying",
        Running => "running",
        Failed => "failed",
        TeardownQueued => "teardown_queued",
        Destroyed => "destroyed",
    }
}

impl DeploymentStatus {
    /// `queued`, `building`, `deploying`: the statuses a deployment can be
    /// stuck in, and the only ones `operator_failed` applies to.
    pub fn in_flight(&self) -> bool {
        matches!(
            self,
            DeploymentStatus::Queued | DeploymentStatus::Building | DeploymentStatus::Deploying
        )
    }
}

status_enum! {
    /// `jobs.kind`.
    JobKind {
        Build => "build",
        Deploy => "deploy",
        Teardown => "teardown",
    }
}

status_enum! {
    /// `jobs.status`.
    JobStatus {
        Queued => "queued",
        Leased => "leased",
        Succeeded => "succeeded",
        Failed => "failed",
        Cancelled => "cancelled",
    }
}

impl JobStatus {
    /// Not finished: an agent may still pick it up or is running it.
    pub fn is_open(&self) -> bool {
        matches!(self, JobStatus::Queued | JobStatus::Leased)
    }
}

status_enum! {
    /// `agent_job_results.outcome`.
    ResultOutcome {
        Succeeded => "succeeded",
        Failed => "failed",
    }
}

status_enum! {
    /// `application_instances.status`.
    InstanceStatus {
        Pending => "pending",
        Starting => "starting",
        Running => "running",
        Stopping => "stopping",
        Removed => "removed",
    }
}

status_enum! {
    /// `fleet_allocations.status`.
    AllocationStatus {
        Reserved => "reserved",
        Active => "active",
        Released => "released",
    }
}

impl AllocationStatus {
    /// Capacity is held: reserved, active, or a status this tool does not
    /// know (fail closed: only `released` is known to free the slot).
    pub fn is_held(&self) -> bool {
        !matches!(self, AllocationStatus::Released)
    }
}

status_enum! {
    /// `ingress_analytics_routes.status`.
    RouteStatus {
        Active => "active",
        Removing => "removing",
        Removed => "removed",
    }
}

status_enum! {
    /// `fleet_nodes.status`.
    NodeStatus {
        Online => "online",
        Draining => "draining",
        Offline => "offline",
    }
}

#[cfg(test)]
#[path = "status_tests.rs"]
mod tests;
