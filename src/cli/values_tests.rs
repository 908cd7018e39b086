use super::*;

#[test]
fn every_value_reads_back_as_itself() {
    for format in OutputFormat::value_variants() {
        let Some(value) = format.to_possible_value() else {
            panic!("{format:?} has no word");
        };
        assert_eq!(OutputFormat::from_str(value.get_name(), false), Ok(*format));
    }
    for color in ColorChoice::value_variants() {
        let Some(value) = color.to_possible_value() else {
            panic!("{color:?} has no word");
        };
        assert_eq!(ColorChoice::from_str(value.get_name(), false), Ok(*color));
    }
    assert_eq!(
        OutputFormat::from_str("openmetrics", false),
        Ok(OutputFormat::Openmetrics)
    );
}
