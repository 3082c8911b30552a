//! Worked examples played through `warhorse script` (the real binary), and replay determinism.

use crate::warhorse;
use std::path::Path;

fn script_json(level: &str, orders: &str, seed: u64) -> serde_json::Value {
    let seed = seed.to_string();
    let (code, out, err) = warhorse(&["script", level, orders, "--seed", &seed, "--json"]);
    assert_eq!(code, 0, "script failed: {err}");
    serde_json::from_str(&out).expect("script prints JSON")
}

fn results(v: &serde_json::Value) -> Vec<String> {
    v["orders"]
        .as_array()
        .expect("orders")
        .iter()
        .map(|o| o["result"].as_str().unwrap_or("?").to_string())
        .collect()
}

fn figure<'a>(v: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    v["figures"]
        .as_array()
        .expect("figures")
        .iter()
        .find(|f| f["id"] == id)
        .expect("figure present")
}

const LEVEL: &str = "tests/fixtures/asl_examples.ron";

#[test]
fn a4_example_one_dismount_after_four_mf() {
    let v = script_json(LEVEL, "tests/fixtures/asl_example1_ok.orders.ron", 1);
    assert_eq!(results(&v), ["accepted"; 5], "{v:#}");
    let log = v["log"].to_string();
    assert!(log.contains("the horse loses 6 MF and has 6 left"), "{log}");
    assert!(log.contains("allotment 16, 10 MF available"), "{log}");
    let leader = figure(&v, "leader");
    assert!(leader["mounted_on"].is_null());
    assert_eq!(leader["cell"], serde_json::json!([6, 0]));
    assert_eq!(leader["allowance_left"], "0");
}

#[test]
fn a4_example_one_refuses_a_fifth_mf() {
    let v = script_json(LEVEL, "tests/fixtures/asl_example1_too_far.orders.ron", 1);
    assert_eq!(
        results(&v),
        ["accepted", "accepted", "accepted", "accepted", "refused"]
    );
    let reason = v["orders"][4]["reason"].as_str().unwrap();
    assert!(reason.starts_with("A4:"), "{reason}");
    assert_eq!(figure(&v, "leader")["mounted_on"], "horse");
}

#[test]
fn a4_example_two_fifteen_mf_then_dismount() {
    let v = script_json(LEVEL, "tests/fixtures/asl_example2_ok.orders.ron", 1);
    assert_eq!(results(&v), ["accepted"; 3], "{v:#}");
    assert!(v["log"].to_string().contains("the horse loses 5 MF"));
    let v = script_json(LEVEL, "tests/fixtures/asl_example2_too_far.orders.ron", 1);
    assert_eq!(results(&v), ["accepted", "accepted", "refused"]);
}

#[test]
fn same_seed_same_orders_same_bytes() {
    for seed in ["3", "77"] {
        let a = warhorse(&[
            "script",
            LEVEL,
            "tests/fixtures/asl_example1_ok.orders.ron",
            "--seed",
            seed,
            "--json",
        ]);
        let b = warhorse(&[
            "script",
            LEVEL,
            "tests/fixtures/asl_example1_ok.orders.ron",
            "--seed",
            seed,
            "--json",
        ]);
        assert_eq!(a.0, 0);
        assert_eq!(a.1, b.1, "replay differs for seed {seed}");
    }
    assert!(Path::new(LEVEL).exists());
}

#[test]
fn formats_doc_orders_example_plays_as_documented() {
    let doc = std::fs::read_to_string("docs/formats.md").expect("formats.md");
    let orders = std::fs::read_to_string("docs/examples/tiny.orders.ron").expect("example");
    assert!(
        doc.contains(&format!("```ron\n{orders}```")),
        "formats.md must quote the orders example"
    );
    let v = script_json("docs/examples/tiny.ron", "docs/examples/tiny.orders.ron", 1);
    assert_eq!(
        results(&v),
        [
            "accepted", "accepted", "accepted", "accepted", "refused", "accepted"
        ],
        "{v:#}"
    );
    let knight = figure(&v, "knight");
    assert_eq!(
        (knight["cell"].clone(), knight["facing"].as_str()),
        (serde_json::json!([4, 1]), Some("S"))
    );
    assert_eq!(figure(&v, "foot_1")["facing"], "S");
}
