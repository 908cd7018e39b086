use super::*;

#[test]
fn finds_the_output_format_in_a_line_that_did_not_parse() {
    let args = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    assert_eq!(
        requested_in_args(&args("diagnose -o json --bogus")),
        Some(OutputFormat::Json)
    );
    assert_eq!(
        requested_in_args(&args("--output=json stuck")),
        Some(OutputFormat::Json)
    );
    assert_eq!(
        requested_in_args(&args("-ojson x")),
        Some(OutputFormat::Json)
    );
    assert_eq!(
        requested_in_args(&args("-o table x")),
        Some(OutputFormat::Table)
    );
    assert_eq!(requested_in_args(&args("stuck --bogus")), None);
}
