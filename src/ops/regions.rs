//! Several regions at once for the fleet-wide views (`stuck`, `fleet list`,
//! `history`): a region is a named connection service (one control-plane
//! database each); `--service a,b,…` names some, `--all-services` takes
//! every service the service files define. They are read in parallel; a
//! region that cannot be read is reported while the others are shown, and
//! the command then exits 1 (the view is incomplete).

use crate::db::session::Session;
use anyhow::Result;

use super::Context;
use crate::db::connect::service_names;
use crate::exit;
use crate::model::region::RegionStatus;

/// Which databases a fleet-wide view reads.
pub enum Regions {
    /// One database, as usual.
    One,
    /// These regions (connection services), in the order named.
    Many(Vec<String>),
}

/// What a fleet-wide view read: the value (merged across the regions that
/// answered; `None` when regions were asked for and none could be merged)
/// and each region's status (empty for one database).
pub struct Regional<T> {
    pub value: Option<T>,
    pub statuses: Vec<RegionStatus>,
}

impl Regions {
    /// The regions `--service a,b,…` or `--all-services` asks for.
    pub fn requested(ctx: &Context, all_services: bool) -> Result<Regions> {
        if all_services {
            let names = service_names()?;
            if names.is_empty() {
                return Err(exit::usage(
                    "--all-services: no service file defines a service (PGSERVICEFILE, \
                     ~/.pg_service.conf, PGSYSCONFDIR/pg_service.conf)",
                ));
            }
            return Ok(Regions::Many(names));
        }
        let Some(list) = ctx.global.service.as_deref().filter(|s| s.contains(',')) else {
            return Ok(Regions::One);
        };
        Ok(Regions::Many(
            list.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        ))
    }

    /// Reads the one database, or every region in parallel and merges what
    /// answered (`merge` also gets every region's status).
    pub fn read<T: Send>(
        &self,
        ctx: &Context,
        read: &(dyn Fn(&mut Session) -> Result<T> + Sync),
        merge: impl FnOnce(Vec<(String, T)>, Vec<RegionStatus>) -> Option<T>,
    ) -> Result<Regional<T>> {
        match self {
            Regions::One => {
                let mut session = ctx.connect_for_reading()?;
                Ok(Regional {
                    value: Some(read(&mut session)?),
                    statuses: Vec::new(),
                })
            }
            Regions::Many(names) => {
                let (statuses, parts) = split(read_all(ctx, names, read));
                Ok(Regional {
                    value: merge(parts, statuses.clone()),
                    statuses,
                })
            }
        }
    }
}

/// Reads every region in parallel, each in its own session: the results
/// in the order the regions were named.
fn read_all<T: Send>(
    ctx: &Context,
    regions: &[String],
    read: &(dyn Fn(&mut Session) -> Result<T> + Sync),
) -> Vec<(String, Result<T>)> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = regions
            .iter()
            .map(|region| {
                scope.spawn(move || {
                    let result = ctx
                        .connect_to_region(region)
                        .and_then(|mut client| read(&mut client));
                    (region.clone(), result)
                })
            })
            .collect();
        handles
            .into_iter()
            .zip(regions)
            .map(|(handle, region)| {
                handle.join().unwrap_or_else(|_| {
                    (
                        region.clone(),
                        Err(anyhow::anyhow!("reading region {region} panicked")),
                    )
                })
            })
            .collect()
    })
}

/// The status of each region, and the values of those that answered.
fn split<T>(results: Vec<(String, Result<T>)>) -> (Vec<RegionStatus>, Vec<(String, T)>) {
    let mut statuses = Vec::new();
    let mut values = Vec::new();
    for (region, result) in results {
        match result {
            Ok(value) => {
                statuses.push(RegionStatus {
                    region: region.clone(),
                    ok: true,
                    error: None,
                });
                values.push((region, value));
            }
            Err(err) => statuses.push(RegionStatus {
                region,
                ok: false,
                error: Some(format!("{err:#}")),
            }),
        }
    }
    (statuses, values)
}

/// Says which regions could not be read (stderr) and how the command
/// exits: 1 when any could not, else `otherwise`.
pub fn finish(
    ctx: &Context,
    statuses: &[RegionStatus],
    otherwise: exit::ExitCode,
) -> exit::ExitCode {
    let failed: Vec<&RegionStatus> = statuses.iter().filter(|s| !s.ok).collect();
    for status in &failed {
        let line = format!(
            "region {} could not be read: {}",
            status.region,
            status.error.as_deref().unwrap_or("unknown")
        );
        ctx.output
            .note(&crate::ui::text::wrapped(&line, ctx.output.width, "", "  "));
    }
    if failed.is_empty() {
        otherwise
    } else {
        let line = format!(
            "{} of {} regions could not be read: the view above is incomplete (exit 1)",
            failed.len(),
            statuses.len()
        );
        ctx.output
            .note(&crate::ui::text::wrapped(&line, ctx.output.width, "", "  "));
        exit::ExitCode::Unexpected
    }
}
