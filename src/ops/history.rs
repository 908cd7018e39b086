//! `history`: what operators did (every `operator_failed` and
//! `teardown_requested` with its audit), newest first, over one database
//! or several regions. Read-only.

use anyhow::Result;

use super::Context;
use super::regions::{Regional, Regions};
use crate::cli::HistoryArgs;
use crate::db::deployment_id::{self, IdQuery};
use crate::db::history;
use crate::db::session::Session;
use crate::decide::regions::merge_history;
use crate::exit;
use crate::model::history::History;

/// The actions of the one database or of every region asked for, merged
/// newest first within `--limit`.
pub fn list_all(ctx: &Context, args: &HistoryArgs) -> Result<Regional<History>> {
    let regions = Regions::requested(ctx, args.regions.all_services)?;
    let deployment = deployment(args, &regions)?;
    let many = matches!(regions, Regions::Many(_));
    let read = |session: &mut Session| {
        let (id, must_exist) = which(ctx, session, args, deployment.as_ref(), many)?;
        history::list(
            session,
            ctx.schema(),
            &args.filter(id),
            args.limit,
            must_exist,
        )
    };
    regions.read(ctx, &read, |parts, statuses| {
        merge_history(parts, statuses, args.limit)
    })
}

/// The deployment `history ID` or `--deployment` names, and whether the
/// history's own flight must look it up (a full id in one database:
/// unknown is exit 3). In one database a prefix is looked up first, in a
/// flight of its own (it names exactly one deployment, as everywhere
/// else); across regions the id is whole and not looked up.
fn which(
    ctx: &Context,
    session: &mut Session,
    args: &HistoryArgs,
    deployment: Option<&IdQuery>,
    many: bool,
) -> Result<(Option<uuid::Uuid>, bool)> {
    Ok(match (deployment, args.deployment()) {
        (Some(IdQuery::Full(id)), _) => (Some(*id), !many),
        (Some(_), Some(text)) => (
            Some(deployment_id::resolve_in_flight(
                session,
                ctx.schema(),
                text,
            )?),
            false,
        ),
        _ => (None, false),
    })
}

/// `--deployment` as given. A prefix is resolved in one database; across
/// regions the id must be whole.
fn deployment(args: &HistoryArgs, regions: &Regions) -> Result<Option<IdQuery>> {
    let query = args.deployment().map(deployment_id::parse).transpose()?;
    if matches!(regions, Regions::Many(_)) && matches!(query, Some(IdQuery::Prefix { .. })) {
        return Err(exit::usage(
            "--deployment: with several regions give the full id (a prefix is \
             resolved in one database)",
        ));
    }
    Ok(query)
}
