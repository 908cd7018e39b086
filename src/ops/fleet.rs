//! `fleet list`: every node, its heartbeat age and the capacity in use,
//! over one database or several regions.

use anyhow::Result;

use super::Context;
use super::regions::{Regional, Regions};
use crate::cli::FleetListArgs;
use crate::db::fleet;
use crate::db::session::Session;
use crate::decide::regions::merge_fleet;
use crate::model::fleet::FleetList;
use crate::ui;

/// The fleet of the one database or of every region asked for, merged.
pub fn list_all(ctx: &Context, args: &FleetListArgs) -> Result<Regional<FleetList>> {
    Regions::requested(ctx, args.regions.all_services)?.read(
        ctx,
        &|session| list(ctx, session, args),
        merge_fleet,
    )
}

/// One session's fleet (also one refresh of `--watch`), warning when
/// row-level security may hide rows from it.
pub fn list(ctx: &Context, client: &mut Session, args: &FleetListArgs) -> Result<FleetList> {
    let stale_after = args.staleness.stale_after;
    let list = fleet::list(client, ctx.schema(), &args.filter(), stale_after)?;
    ui::warn_row_security(&list.snapshot.row_security, "the list");
    Ok(list)
}
