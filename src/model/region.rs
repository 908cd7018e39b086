//! Regions: one control-plane database per named connection service. A
//! fleet-wide command may read several at once; each answers or not
//! (merging their reports is a decision: `decide::regions`).

use serde::Serialize;

/// How reading one region went.
#[derive(Debug, Clone, Serialize)]
pub struct RegionStatus {
    /// The service's name.
    pub region: String,
    pub ok: bool,
    /// Why it could not be read (absent when it could).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}
