use super::*;

#[test]
fn a_watch_screen_shows_every_line_in_order() {
    let lines = [Line::Out("table".into()), Line::Note("summary".into())];
    assert_eq!(joined(&lines), "table\nsummary");
}

/// A report with a view, a watch frame and metrics of its own.
#[derive(Serialize)]
struct Counted {
    stuck: u32,
}

impl Report for Counted {
    const FORMATS: &'static [OutputFormat] = &[OutputFormat::Table, OutputFormat::Openmetrics];

    fn human(&self, _out: &Output) -> Vec<Line> {
        vec![
            Line::Out(format!("{} stuck", self.stuck)),
            Line::Note("hint".into()),
        ]
    }

    fn frame(&self, _out: &Output) -> Vec<Line> {
        vec![Line::Out(format!("{} stuck", self.stuck))]
    }

    fn openmetrics(&self) -> Option<String> {
        Some(format!("pushleft_stuck {}\n# EOF\n", self.stuck))
    }
}

/// A report with a view only.
#[derive(Serialize)]
struct Plain;

impl Report for Plain {
    fn human(&self, _out: &Output) -> Vec<Line> {
        vec![Line::Out("plain".into())]
    }
}

#[test]
fn a_watch_frame_is_the_reports_frame_or_its_json_line() {
    let table = Output::plain();
    assert_eq!(
        frame(&table, &Counted { stuck: 2 }).ok().as_deref(),
        Some("2 stuck")
    );
    assert_eq!(frame(&table, &Plain).ok().as_deref(), Some("plain"));
    let json = Output {
        format: OutputFormat::Json,
        ..Output::plain()
    };
    assert_eq!(
        frame(&json, &Counted { stuck: 2 }).ok().as_deref(),
        Some(r#"{"schema_version":1,"stuck":2}"#)
    );
}

#[test]
fn write_writes_the_reports_metrics_and_only_a_report_that_has_them() {
    let dir = tempfile::tempdir().expect("a directory");
    let path = dir.path().join("pushleft.prom");
    write_metrics(&path, &Counted { stuck: 3 }).expect("written");
    let text = std::fs::read_to_string(&path).expect("the file");
    assert_eq!(text, "pushleft_stuck 3\n# EOF\n");
    assert!(write_metrics(&path, &Plain).is_err());
    assert_eq!(std::fs::read_to_string(&path).ok(), Some(text), "kept");
}
