//! Arguments become typed requests here, and only here: the clap mirror
//! enums map onto the model's, and each command's arguments onto what `db`
//! and `decide` take (README, "The layers"). A command's `run` asks its
//! arguments for the request and never looks inside them for that.

use crate::db::fleet::FleetFilter;
use crate::db::history::{HistoryFilter, When};
use crate::db::stuck::StuckThresholds;
use crate::db::transition::{Audit, Request};
use crate::decide::Policy;
use crate::decide::input::{validate_fingerprint, validate_key, validate_reason};
use crate::decide::triage::{GroupBy, SortBy, Triage, TriageFilter};
use crate::decide::triggers::AllowedTriggers;
use crate::model::plan::{Approval, Plan, PlannedDeployment};
use crate::model::{BreakGlassPath, DeploymentStatus, NodeStatus};

use super::{
    DeploymentStatusArg, ExpectedPath, FailSafelyArgs, FleetListArgs, GlobalArgs, GroupByArg,
    GuardArgs, HistoryArgs, NodeStatusFilter, PathArg, SortArg, StalenessArgs, StuckArgs, WhenArg,
};

impl From<DeploymentStatusArg> for DeploymentStatus {
    fn from(arg: DeploymentStatusArg) -> DeploymentStatus {
        match arg {
            DeploymentStatusArg::Queued => DeploymentStatus::Queued,
            DeploymentStatusArg::Building => DeploymentStatus::Building,
            DeploymentStatusArg::Deploying => DeploymentStatus::Deploying,
            DeploymentStatusArg::Running => DeploymentStatus::Running,
            DeploymentStatusArg::Failed => DeploymentStatus::Failed,
            DeploymentStatusArg::TeardownQueued => DeploymentStatus::TeardownQueued,
            DeploymentStatusArg::Destroyed => DeploymentStatus::Destroyed,
        }
    }
}

impl From<PathArg> for BreakGlassPath {
    fn from(arg: PathArg) -> BreakGlassPath {
        match arg {
            PathArg::OperatorFailed => BreakGlassPath::OperatorFailed,
            PathArg::TeardownRequested => BreakGlassPath::TeardownRequested,
            PathArg::None => BreakGlassPath::None,
        }
    }
}

impl From<ExpectedPath> for BreakGlassPath {
    fn from(arg: ExpectedPath) -> BreakGlassPath {
        match arg {
            ExpectedPath::OperatorFailed => BreakGlassPath::OperatorFailed,
            ExpectedPath::TeardownRequested => BreakGlassPath::TeardownRequested,
        }
    }
}

impl From<SortArg> for SortBy {
    fn from(arg: SortArg) -> SortBy {
        match arg {
            SortArg::StuckFor => SortBy::StuckFor,
            SortArg::Status => SortBy::Status,
            SortArg::Org => SortBy::Org,
            SortArg::Node => SortBy::Node,
        }
    }
}

impl From<GroupByArg> for GroupBy {
    fn from(arg: GroupByArg) -> GroupBy {
        match arg {
            GroupByArg::Node => GroupBy::Node,
            GroupByArg::Pool => GroupBy::Pool,
            GroupByArg::Status => GroupBy::Status,
            GroupByArg::Path => GroupBy::Path,
            GroupByArg::Org => GroupBy::Org,
        }
    }
}

impl From<NodeStatusFilter> for NodeStatus {
    fn from(arg: NodeStatusFilter) -> NodeStatus {
        match arg {
            NodeStatusFilter::Online => NodeStatus::Online,
            NodeStatusFilter::Draining => NodeStatus::Draining,
            NodeStatusFilter::Offline => NodeStatus::Offline,
        }
    }
}

impl From<WhenArg> for When {
    fn from(arg: WhenArg) -> When {
        match arg {
            WhenArg::At(at) => When::At(at),
            WhenArg::Ago(ago) => When::Ago(ago),
        }
    }
}

impl StuckArgs {
    /// What to do with the scan: filters, order, groups, the limit.
    pub fn triage(&self) -> Triage {
        Triage {
            filter: TriageFilter {
                status: self.status.map(Into::into),
                org: self.org.clone(),
                node: self.node.clone(),
                pool: self.pool.clone(),
                path: self.path.map(Into::into),
            },
            sort: self.sort.map(Into::into).unwrap_or(SortBy::StuckFor),
            limit: self.limit,
            group_by: self.group_by.map(Into::into),
        }
    }

    /// The alerts' two thresholds.
    pub fn thresholds(&self) -> StuckThresholds {
        StuckThresholds {
            stuck_after: self.for_,
            grace: self.grace,
        }
    }
}

impl FleetListArgs {
    /// Which nodes to list.
    pub fn filter(&self) -> FleetFilter {
        FleetFilter {
            pool: self.pool.clone(),
            status: self.status.map(Into::into),
            stale_only: self.stale,
        }
    }
}

impl HistoryArgs {
    /// Which actions to list, on `deployment` once its id is resolved.
    pub fn filter(&self, deployment: Option<uuid::Uuid>) -> HistoryFilter {
        HistoryFilter {
            since: self.since.map(Into::into),
            until: self.until.map(Into::into),
            operator: self.operator.clone(),
            reason_contains: self.reason_contains.clone(),
            deployment,
            self_approved: self.self_approved.then_some(true),
        }
    }
}

impl FailSafelyArgs {
    /// The request for one deployment (the positional one, or one of a
    /// batch): the reason, key and fingerprint checked here, before any
    /// connection.
    pub fn request(&self, global: &GlobalArgs, deployment: &str) -> anyhow::Result<Request> {
        Ok(Request {
            deployment: deployment.to_string(),
            reason: validate_reason(
                self.reason.as_deref().unwrap_or_default(),
                self.reason_pattern.as_ref(),
            )?,
            idempotency_key: self
                .idempotency_key
                .as_deref()
                .map(validate_key)
                .transpose()?,
            dry_run: self.dry_run,
            expect_path: self.expect_path.map(Into::into),
            expect_fingerprint: self
                .expect_fingerprint
                .as_deref()
                .map(validate_fingerprint)
                .transpose()?,
            role: self.role.clone(),
            lock_timeout: self.lock_timeout,
            policy: self.staleness.policy(),
            audit: Audit {
                region: global.service.clone(),
                ..Audit::of_this_process()
            },
            schema: global.schema.clone(),
            even_if_not_stuck: self.even_if_not_stuck,
            allowed_triggers: self.guard.allowed(),
        })
    }
}

impl FailSafelyArgs {
    /// The request that applies one deployment of `plan` (`--apply`):
    /// the plan's reason, key and role, held to its path and fingerprint,
    /// with `approval` in the audit. The plan's text is checked as typed
    /// arguments would be.
    pub fn apply_request(
        &self,
        global: &GlobalArgs,
        plan: &Plan,
        planned: &PlannedDeployment,
        approval: &Approval,
    ) -> anyhow::Result<Request> {
        Ok(Request {
            deployment: planned.deployment_id.to_string(),
            reason: validate_reason(&plan.reason, self.reason_pattern.as_ref())?,
            idempotency_key: Some(validate_key(&planned.idempotency_key)?),
            dry_run: false,
            expect_path: Some(planned.path),
            expect_fingerprint: Some(validate_fingerprint(&planned.fingerprint)?),
            role: plan.role.clone(),
            lock_timeout: self.lock_timeout,
            policy: self.staleness.policy(),
            audit: Audit {
                region: global.service.clone(),
                approval: Some(approval.clone()),
                ..Audit::of_this_process()
            },
            schema: global.schema.clone(),
            even_if_not_stuck: plan.even_if_not_stuck,
            allowed_triggers: self.guard.allowed(),
        })
    }
}

impl GuardArgs {
    /// What the team vouches for beyond the reference schema.
    pub fn allowed(&self) -> AllowedTriggers {
        AllowedTriggers::parse(&self.allowed_triggers)
    }
}

impl StalenessArgs {
    /// The decision's policy with this staleness threshold.
    pub fn policy(&self) -> Policy {
        Policy {
            stale_after: self.stale_after,
            ..Policy::default()
        }
    }
}
