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
        let id = match (&deployment, args.deployment()) {
            (Some(IdQuery::Full(id)), _) if many => Some(*id),
            // In one database the id is looked up (a prefix names exactly
            // one deployment, as everywhere else).
            (Some(_), Some(text)) => {
                Some(session.read(|tx| deployment_id::resolve(tx, ctx.schema(), text))?)
            }
            _ => None,
        };
        history::list(session, ctx.schema(), &args.filter(id), args.limit)
    };
    regions.read(ctx, &read, |parts, statuses| {
        merge_history(parts, statuses, args.limit)
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
