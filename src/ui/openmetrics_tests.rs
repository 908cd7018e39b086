use super::*;

#[test]
fn a_failed_scan_keeps_the_last_success_and_ends_with_eof() {
    let at = DateTime::from_timestamp(1_790_000_000, 0).expect("a time");
    let earlier = DateTime::from_timestamp(1_789_999_000, 0).expect("a time");
    let text = render(&Scan::Failed { previous: None }, at, Some(earlier));
    assert!(text.contains("pushleft_scan_success 0\n"), "{text}");
    assert!(text.ends_with("# EOF\n"));
    assert_eq!(last_success_in(&text), Some(earlier));
    assert_eq!(label("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
}

#[test]
fn a_failed_scan_keeps_the_series_of_the_last_good_one() {
    let at = DateTime::from_timestamp(1_790_000_000, 0).expect("a time");
    let good = "# TYPE pushleft_deployments_stuck gauge\n\
                pushleft_deployments_stuck{status=\"queued\",path=\"operator_failed\"} 2\n\
                # TYPE pushleft_scan_success gauge\npushleft_scan_success 1\n\
                # TYPE pushleft_last_success_timestamp_seconds gauge\n\
                pushleft_last_success_timestamp_seconds 1789999000\n# EOF\n";
    let failed = Scan::Failed {
        previous: Some(good),
    };
    let text = render(&failed, at, last_success_in(good));
    assert!(
        text.starts_with(
            "# TYPE pushleft_deployments_stuck gauge\n\
             pushleft_deployments_stuck{status=\"queued\",path=\"operator_failed\"} 2\n"
        ),
        "{text}"
    );
    assert_eq!(text.matches("pushleft_scan_success").count(), 3, "{text}");
    assert!(text.contains("pushleft_scan_success 0\n"), "{text}");
    assert_eq!(last_success_in(&text), last_success_in(good));
}

#[test]
fn the_metrics_report_renders_the_scan_as_the_metrics_text() {
    let at = DateTime::from_timestamp(1_790_000_000, 0).expect("a time");
    let metrics = Metrics {
        scan: Scan::Failed { previous: None },
        at,
        last_success: None,
    };
    let text = metrics.openmetrics().expect("metrics");
    assert_eq!(text, render(&Scan::Failed { previous: None }, at, None));
    assert_eq!(Metrics::FORMATS, &[OutputFormat::Openmetrics]);
}
