//! Every card's cost in blows and who may play it (§6, C8, D7, D8).

use super::cards::*;
use super::fight::{Fight, Held, Posture};
use super::tables::{seed, tables};
use super::testkit::*;
use crate::rules::gait::Gait;
use crate::rules::grid::{Cell, Dir, GridKind};

fn duel() -> Fight {
    let r = destrier();
    fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
        ],
        &[],
    )
}

/// The verdict on one card for `id`, with an optional TAC card played with it.
fn ok(
    f: &Fight,
    id: &str,
    card: Card,
    tac_phase: bool,
    tac: Option<TacCard>,
) -> Result<(), Ineligible> {
    let with = match &card {
        Card::Melee(m) => vec![m.clone()],
        Card::Tac(_) => Vec::new(),
    };
    let sit = Situation {
        fight: f,
        tables: tables(),
        tac_phase,
        tac,
        with: &with,
    };
    eligibility(&card, &f.fighters[ix(f, id)], &sit)
}

fn m(c: MeleeCard) -> Card {
    Card::Melee(c)
}

fn cost_of(f: &Fight, id: &str, c: Choice, tac_phase: bool) -> u8 {
    play_cost(f, ix(f, id), &c, tables(), tac_phase)
}

fn tag(r: Result<(), Ineligible>) -> &'static str {
    r.expect_err("should be refused").tag
}

#[test]
fn tac_cards_cost_nothing_in_the_tac_phase_and_2_or_1_to_join() {
    let f = duel();
    assert_eq!(
        cost_of(&f, "a", tac(TacCard::Charge, Some("b"), vec![]), true),
        0
    );
    assert_eq!(
        cost_of(&f, "a", tac(TacCard::Close, None, vec![]), false),
        2
    );
    assert_eq!(
        cost_of(&f, "a", tac(TacCard::StandGround, None, vec![]), false),
        1
    );
    assert_eq!(
        cost_of(&f, "a", tac(TacCard::KeepDistance, None, vec![]), false),
        1
    );
    // In the card rounds a figure in contact plays no TAC card (D8).
    assert_eq!(
        tag(ok(&f, "a", Card::Tac(TacCard::StandGround), false, None)),
        "D8"
    );
    // Out of contact with an enemy within a 3" move, it may (D8).
    let mut g = duel();
    let a = ix(&g, "a");
    g.place(a, Cell::new(2, 5), Dir(2));
    assert!(ok(&g, "a", Card::Tac(TacCard::Close), false, None).is_ok());
    g.place(a, Cell::new(1, 5), Dir(2));
    assert_eq!(
        tag(ok(&g, "a", Card::Tac(TacCard::Close), false, None)),
        "D8"
    );
    assert_eq!(seed::JOIN_MELEE, 3);
}

#[test]
fn tac_card_eligibility_by_kind_and_encumbrance() {
    let mut f = duel();
    let a = ix(&f, "a");
    // A footman is partly encumbered: RETREAT, CLOSE, STAND GROUND, KEEP DISTANCE, RUN AWAY —
    // but not FLECHE or CHARGE (unencumbered only).
    for c in [
        TacCard::Retreat,
        TacCard::Close,
        TacCard::StandGround,
        TacCard::KeepDistance,
        TacCard::RunAway,
    ] {
        assert!(ok(&f, "a", Card::Tac(c), true, None).is_ok(), "{c:?}");
    }
    for c in [TacCard::Fleche, TacCard::Charge] {
        assert_eq!(
            tag(ok(&f, "a", Card::Tac(c), true, None)),
            "§6 TAC cards",
            "{c:?}"
        );
    }
    f.fighters[a].enc = crate::rules::ruleset::Encumbrance::None;
    assert!(ok(&f, "a", Card::Tac(TacCard::Fleche), true, None).is_ok());
    f.fighters[a].enc = crate::rules::ruleset::Encumbrance::Full;
    for c in [TacCard::Retreat, TacCard::Close] {
        assert!(ok(&f, "a", Card::Tac(c), true, None).is_err(), "{c:?}");
    }
    assert!(
        ok(&f, "a", Card::Tac(TacCard::RunAway), true, None).is_ok(),
        "all may run away"
    );
    // Animals: CHARGE, RUN AWAY; CLOSE only after a charge; STAND GROUND if trained.
    use super::tables::Kind;
    f.fighters[a].profile.kind = Kind::Animal;
    assert!(ok(&f, "a", Card::Tac(TacCard::Charge), true, None).is_ok());
    assert!(ok(&f, "a", Card::Tac(TacCard::Close), true, None).is_err());
    f.fighters[a].state.charged_ever = true;
    assert!(ok(&f, "a", Card::Tac(TacCard::Close), true, None).is_ok());
    f.fighters[a].profile.trained = false;
    assert!(ok(&f, "a", Card::Tac(TacCard::StandGround), true, None).is_err());
    f.fighters[a].profile.kind = Kind::AgileBeast;
    f.fighters[a].state.charged_ever = false;
    assert!(
        ok(&f, "a", Card::Tac(TacCard::Close), true, None).is_ok(),
        "dogs always close"
    );
    f.fighters[a].profile.kind = Kind::DullMonster;
    assert!(ok(&f, "a", Card::Tac(TacCard::KeepDistance), true, None).is_err());
    assert!(ok(&f, "a", Card::Tac(TacCard::Retreat), true, None).is_err());
    assert!(
        ok(&f, "a", Card::Tac(TacCard::Charge), true, None).is_ok(),
        "all monsters charge"
    );
    // One CHARGE per turn.
    f.fighters[a].state.charged = true;
    assert_eq!(
        tag(ok(&f, "a", Card::Tac(TacCard::Charge), true, None)),
        "D8"
    );
    // FLECHE and CHARGE need a designated enemy.
    let g = duel();
    let mut c = tac(TacCard::Close, None, vec![]);
    assert!(check_play(&g, 0, &c, tables(), true).is_ok());
    c.tac = Some(TacCard::Fleche);
    let mut h = duel();
    h.fighters[0].enc = crate::rules::ruleset::Encumbrance::None;
    assert!(check_play(&h, 0, &c, tables(), true).is_err());
    c.tac_target = Some("b".into());
    assert!(check_play(&h, 0, &c, tables(), true).is_ok());
}

#[test]
fn c8_mount_speed_limits_tac_cards_and_forces_move() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "k", "knight_on_destrier", 0, Cell::new(3, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(8, 5), Dir(6)),
        ],
        &[],
    );
    let m = ix(&f, "k.mount");
    let allowed = |f: &Fight| -> Vec<TacCard> {
        TacCard::ALL
            .into_iter()
            .filter(|&c| ok(f, "k", Card::Tac(c), true, None).is_ok())
            .collect()
    };
    use TacCard::*;
    for g in [Gait::Halt, Gait::Walk, Gait::Trot] {
        f.fighters[m].gait = g;
        assert_eq!(allowed(&f), vec![Retreat, Close, StandGround], "{g}");
    }
    f.fighters[m].gait = Gait::Canter;
    assert_eq!(allowed(&f), vec![Retreat, Fleche]);
    f.fighters[m].gait = Gait::Gallop;
    assert_eq!(allowed(&f), vec![RunAway, Charge]);
    // At canter or faster the horse plays only MOVE, and must.
    assert_eq!(tag(ok(&f, "k.mount", m_kick("b"), false, None)), "C8");
    assert!(check_play(&f, m, &melee(vec![]), tables(), false).is_err());
    // The horse plays no TAC card of its own.
    assert_eq!(tag(ok(&f, "k.mount", Card::Tac(Charge), true, None)), "C8");
}

fn m_kick(t: &str) -> Card {
    m(MeleeCard::Kick { target: t.into() })
}

#[test]
fn weapon_cards_cost_one_and_need_reach_and_the_front() {
    let mut f = duel();
    for c in [blow("b"), MeleeCard::Ferocity { target: "b".into() }] {
        assert!(ok(&f, "a", m(c.clone()), false, None).is_ok(), "{c}");
        assert_eq!(cost_of(&f, "a", melee(vec![c]), false), 1);
    }
    // GREAT BLOW: Chivalry and Nordics only.
    assert_eq!(
        tag(ok(
            &f,
            "a",
            m(MeleeCard::GreatBlow { target: "b".into() }),
            false,
            None
        )),
        "§6 GREAT BLOW"
    );
    let a = ix(&f, "a");
    f.fighters[a].profile.tradition = super::tables::Tradition::Chivalry;
    assert!(
        ok(
            &f,
            "a",
            m(MeleeCard::GreatBlow { target: "b".into() }),
            false,
            None
        )
        .is_ok()
    );
    // With FEROCITY on the same target: 3 blows for the two.
    let both = melee(vec![
        MeleeCard::GreatBlow { target: "b".into() },
        MeleeCard::Ferocity { target: "b".into() },
    ]);
    assert_eq!(cost_of(&f, "a", both, false), 3);
    // Not with a lance.
    f.fighters[a].weapon = "lance".into();
    assert_eq!(
        tag(ok(
            &f,
            "a",
            m(MeleeCard::GreatBlow { target: "b".into() }),
            false,
            None
        )),
        "§6 GREAT BLOW"
    );
    f.fighters[a].weapon = "spear".into();
    // FEROCITY: trained fighters only.
    f.fighters[a].profile.trained = false;
    assert_eq!(
        tag(ok(
            &f,
            "a",
            m(MeleeCard::Ferocity { target: "b".into() }),
            false,
            None
        )),
        "§6 FEROCITY"
    );
    // Behind it: no attack (D11).
    f.fighters[a].facing = Dir(6);
    assert_eq!(tag(ok(&f, "a", m(blow("b")), false, None)), "D11");
    // Out of reach: a spear reaches 1; a pike 2.
    let mut g = duel();
    let a = ix(&g, "a");
    g.place(a, Cell::new(4, 5), Dir(2));
    assert_eq!(tag(ok(&g, "a", m(blow("b")), false, None)), "D11");
    g.fighters[a].weapon = "pike".into();
    assert!(ok(&g, "a", m(blow("b")), false, None).is_ok());
    // Unarmed: DRAW WEAPON, or PUNCH.
    g.fighters[a].state.held = Held::Nothing;
    assert_eq!(
        tag(ok(&g, "a", m(blow("b")), false, None)),
        "§6 DRAW WEAPON"
    );
}

#[test]
fn berserk_may_not_defend_and_nordic_berserk_always_ferocity() {
    let mut f = duel();
    let a = ix(&f, "a");
    f.fighters[a].state.berserk = true;
    for c in [
        MeleeCard::WeaponParry,
        MeleeCard::DesperateDefense,
        MeleeCard::ActiveShieldParry,
        MeleeCard::Dodge(DodgeDir::Left),
    ] {
        assert_eq!(
            tag(ok(&f, "a", m(c.clone()), false, None)),
            "§6 FEROCITY",
            "{c}"
        );
    }
    for c in [
        TacCard::Retreat,
        TacCard::RunAway,
        TacCard::StandGround,
        TacCard::KeepDistance,
        TacCard::Close,
    ] {
        assert_eq!(
            tag(ok(&f, "a", Card::Tac(c), true, None)),
            "§6 FEROCITY",
            "{c:?}"
        );
    }
    assert!(ok(&f, "a", m(blow("b")), false, None).is_ok());
    f.fighters[a].profile.berserker = true;
    assert_eq!(tag(ok(&f, "a", m(blow("b")), false, None)), "§6 FEROCITY");
    // All regular movement towards the enemy.
    let step_away = m(MeleeCard::Move(MoveStep::To(Dir(6))));
    f.place(a, Cell::new(3, 5), Dir(2));
    assert_eq!(tag(ok(&f, "a", step_away, false, None)), "§6 FEROCITY");
    assert!(
        ok(
            &f,
            "a",
            m(MeleeCard::Move(MoveStep::To(Dir(2)))),
            false,
            None
        )
        .is_ok()
    );
}

#[test]
fn defensive_card_costs_and_the_free_active_shield_parry() {
    let mut f = duel();
    assert_eq!(
        cost_of(&f, "a", melee(vec![MeleeCard::WeaponParry]), false),
        1
    );
    assert_eq!(
        cost_of(&f, "a", melee(vec![MeleeCard::DesperateDefense]), false),
        1
    );
    assert_eq!(
        cost_of(&f, "a", melee(vec![MeleeCard::PassiveShieldParry]), false),
        0
    );
    assert_eq!(
        cost_of(
            &f,
            "a",
            melee(vec![MeleeCard::Dodge(DodgeDir::Back)]),
            false
        ),
        1
    );
    // ASP: free once a turn, then 1.
    assert_eq!(
        cost_of(&f, "a", melee(vec![MeleeCard::ActiveShieldParry]), false),
        0
    );
    let two = melee(vec![blow("b"), MeleeCard::ActiveShieldParry]);
    assert_eq!(cost_of(&f, "a", two.clone(), false), 1);
    let a = ix(&f, "a");
    f.fighters[a].state.asp_used = true;
    assert_eq!(
        cost_of(&f, "a", two, false),
        2,
        "the seed's DELIVER BLOW + ASP example"
    );
    // ASP: trained fighters with a ready shield.
    f.fighters[a].profile.trained = false;
    assert_eq!(
        tag(ok(&f, "a", m(MeleeCard::ActiveShieldParry), false, None)),
        "§6 ACTIVE SHIELD PARRY"
    );
    f.fighters[a].profile.trained = true;
    f.fighters[a].state.shield_broken = true;
    assert!(ok(&f, "a", m(MeleeCard::ActiveShieldParry), false, None).is_err());
    // The same defence twice in a play means nothing.
    let g = duel();
    assert!(
        check_play(
            &g,
            0,
            &melee(vec![MeleeCard::WeaponParry, MeleeCard::WeaponParry]),
            tables(),
            false
        )
        .is_err()
    );
}

#[test]
fn psp_at_most_six_in_a_row_while_blows_remain() {
    let mut f = duel();
    let a = ix(&f, "a");
    f.fighters[a].state.psp_streak = seed::PSP_IN_A_ROW - 1;
    assert!(ok(&f, "a", m(MeleeCard::PassiveShieldParry), false, None).is_ok());
    f.fighters[a].state.psp_streak = seed::PSP_IN_A_ROW;
    assert_eq!(
        tag(ok(&f, "a", m(MeleeCard::PassiveShieldParry), false, None)),
        "D7"
    );
    // Out of blows it is the only card.
    f.fighters[a].blows = 0;
    assert!(ok(&f, "a", m(MeleeCard::PassiveShieldParry), false, None).is_ok());
    assert_eq!(
        tag(ok(&f, "a", m(blow("b")), false, None).and_then(|_| {
            check_play(&f, a, &melee(vec![blow("b")]), tables(), false).map(|_| ())
        })),
        "D7"
    );
    // A pass after six: the first card it may play.
    f.fighters[a].blows = 4;
    let c = super::flow::pass_play(&f, tables(), a, false);
    assert_eq!(c.melee, vec![blow("b")]);
    // Six passes in a row, then the seventh round forces a blow.
    let mut g = duel();
    let mut seen = Vec::new();
    for _ in 0..7 {
        let c = super::flow::pass_play(&g, tables(), 0, false);
        seen.push(c.melee.clone());
        let (_text, ..) = play(&mut g, &[("a", c)], &[], &[99, 99, 99], &[]);
    }
    assert!(seen[..6].iter().all(|v| v.is_empty()), "{seen:?}");
    assert_eq!(seen[6], vec![blow("b")]);
}

#[test]
fn several_cards_in_a_round_when_the_blows_pay() {
    let mut f = duel();
    let c = melee(vec![
        blow("b"),
        blow("b"),
        MeleeCard::WeaponParry,
        MeleeCard::ActiveShieldParry,
    ]);
    assert_eq!(check_play(&f, 0, &c, tables(), false), Ok(3));
    let c = melee(vec![
        blow("b"),
        blow("b"),
        blow("b"),
        MeleeCard::WeaponParry,
        MeleeCard::DesperateDefense,
    ]);
    assert_eq!(
        tag(check_play(&f, 0, &c, tables(), false).map(|_| ())),
        "D7"
    );
    // One movement card a round.
    let c = melee(vec![
        MeleeCard::Move(MoveStep::To(Dir(0))),
        MeleeCard::Dodge(DodgeDir::Back),
    ]);
    assert!(check_play(&f, 0, &c, tables(), false).is_err());
    f.fighters[0].blows = 1;
    assert!(check_play(&f, 0, &melee(vec![blow("b"), blow("b")]), tables(), false).is_err());
}

#[test]
fn missile_cards_cost_nothing_and_need_a_loaded_weapon() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 30, 12),
        vec![
            figures(&r, "x", "archer", 0, Cell::new(2, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(12, 5), Dir(6)),
        ],
        &[],
    );
    let fire = MeleeCard::Fire { target: "b".into() };
    assert!(ok(&f, "x", m(fire.clone()), false, None).is_ok());
    assert_eq!(
        cost_of(&f, "x", melee(vec![fire.clone(), MeleeCard::Reload]), false),
        0
    );
    assert!(
        ok(&f, "x", m(MeleeCard::Reload), false, None).is_err(),
        "loaded already"
    );
    let x = ix(&f, "x");
    f.fighters[x].state.shots = 2;
    assert_eq!(tag(ok(&f, "x", m(fire.clone()), false, None)), "§6 FIRE");
    f.fighters[x].state.shots = 0;
    f.fighters[x].state.unloaded = true;
    assert_eq!(tag(ok(&f, "x", m(fire.clone()), false, None)), "§6 FIRE");
    assert!(ok(&f, "x", m(MeleeCard::Reload), false, None).is_ok());
    // A bow is no melee weapon.
    let mut g = f.clone();
    let b = ix(&g, "b");
    g.place(b, Cell::new(3, 5), Dir(6));
    assert_eq!(
        tag(ok(&g, "x", m(blow("b")), false, None)),
        "§6 DRAW WEAPON"
    );
}

#[test]
fn draw_weapon_costs_2_4_plus_2_to_sheathe_plus_1_after_missiles() {
    let mut f = duel();
    let a = ix(&f, "a");
    let d = |w: Option<WeaponSlot>, shield: bool, sheathe: bool| MeleeCard::DrawWeapon {
        weapon: w,
        shield,
        sheathe,
    };
    assert_eq!(
        cost_of(
            &f,
            "a",
            melee(vec![d(Some(WeaponSlot::Sidearm), false, false)]),
            false
        ),
        2
    );
    assert_eq!(
        cost_of(
            &f,
            "a",
            melee(vec![d(Some(WeaponSlot::Sidearm), false, true)]),
            false
        ),
        4
    );
    f.fighters[a].state.shield_down = true;
    assert_eq!(
        cost_of(
            &f,
            "a",
            melee(vec![d(Some(WeaponSlot::Sidearm), true, false)]),
            false
        ),
        4
    );
    f.fighters[a].state.missile_used = true;
    assert_eq!(
        cost_of(
            &f,
            "a",
            melee(vec![d(Some(WeaponSlot::Sidearm), true, false)]),
            false
        ),
        5
    );
    assert!(
        ok(
            &f,
            "a",
            m(d(Some(WeaponSlot::Main), false, false)),
            false,
            None
        )
        .is_err(),
        "already held"
    );
    // Drawing drops what is held (unless sheathed).
    let mut g = duel();
    let (text, ..) = play(
        &mut g,
        &[("a", melee(vec![d(Some(WeaponSlot::Sidearm), false, false)]))],
        &[],
        &[],
        &[],
    );
    assert!(
        text.contains("drops its spear and draws its dagger"),
        "{text}"
    );
    let a = &g.fighters[ix(&g, "a")];
    assert_eq!(
        (a.state.held, a.state.main_lost, a.blows),
        (Held::Sidearm, true, 2)
    );
    let mut g = duel();
    play(
        &mut g,
        &[("a", melee(vec![d(Some(WeaponSlot::Sidearm), false, true)]))],
        &[],
        &[],
        &[],
    );
    assert!(!g.fighters[0].state.main_lost);
    assert!(
        ok(
            &g,
            "a",
            m(d(Some(WeaponSlot::Main), false, false)),
            false,
            None
        )
        .is_ok()
    );
}

#[test]
fn grapple_and_hand_to_hand_eligibility() {
    let r = destrier();
    let f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "s", "sergeant_on_courser", 1, Cell::new(6, 5), Dir(0)),
        ],
        &[],
    );
    // Grapples need a TAC card this round.
    let pull = MeleeCard::PullRider { target: "s".into() };
    assert_eq!(tag(ok(&f, "a", m(pull.clone()), true, None)), "§6 GRAPPLES");
    // a is on the horse's left (shield) side: alongside.
    assert!(ok(&f, "a", m(pull.clone()), true, Some(TacCard::StandGround)).is_ok());
    let mut g = f.clone();
    let a = ix(&g, "a");
    g.place(a, Cell::new(6, 6), Dir(0));
    assert_eq!(
        tag(ok(
            &g,
            "a",
            m(pull.clone()),
            true,
            Some(TacCard::StandGround)
        )),
        "§6 PULL RIDER"
    );
    g.fighters[a].profile.tall = true;
    assert!(
        ok(&g, "a", m(pull), true, Some(TacCard::StandGround)).is_ok(),
        "over 10 ft"
    );
    // A man on foot cannot kick a man on horse; a rider kicks only men on foot.
    assert_eq!(tag(ok(&f, "a", m_kick("s"), false, None)), "§6 KICK");
    assert!(ok(&f, "a", m_kick("s.mount"), false, None).is_ok());
    let mut h = f.clone();
    let s = ix(&h, "s");
    h.fighters[s].facing = Dir(6);
    let hm = ix(&h, "s.mount");
    h.fighters[hm].facing = Dir(6);
    assert!(ok(&h, "s", m_kick("a"), false, None).is_ok());
    // The horse kicks to its front and rear only.
    assert!(ok(&h, "s.mount", m_kick("a"), false, None).is_ok());
    assert_eq!(tag(ok(&f, "s.mount", m_kick("a"), false, None)), "D11");
    // TOSS and PUNCH.
    assert_eq!(
        tag(ok(
            &f,
            "a",
            m(MeleeCard::Toss { target: "s".into() }),
            true,
            Some(TacCard::Close)
        )),
        "§6 TOSS"
    );
    assert!(
        ok(
            &f,
            "a",
            m(MeleeCard::Punch { target: "s".into() }),
            false,
            None
        )
        .is_ok()
    );
    assert_eq!(
        tag(ok(
            &f,
            "s.mount",
            m(MeleeCard::Punch { target: "a".into() }),
            false,
            None
        )),
        "§6 PUNCH"
    );
    // BREAK FREE needs a restraint; RESTRAINT needs contact.
    assert_eq!(
        tag(ok(&f, "a", m(MeleeCard::BreakFree), false, None)),
        "§6 BREAK FREE"
    );
    assert!(
        ok(
            &f,
            "a",
            m(MeleeCard::Restraint {
                target: "s.mount".into()
            }),
            false,
            None
        )
        .is_ok()
    );
    for c in [
        MeleeCard::Punch { target: "s".into() },
        MeleeCard::Restraint { target: "s".into() },
        MeleeCard::BreakFree,
    ] {
        assert_eq!(cost_of(&f, "a", melee(vec![c]), false), 1);
    }
    // Men on horseback cannot dodge.
    assert_eq!(
        tag(ok(
            &f,
            "s",
            m(MeleeCard::Dodge(DodgeDir::Back)),
            false,
            None
        )),
        "§6 DODGE"
    );
}

#[test]
fn states_limit_the_cards() {
    let mut f = duel();
    let a = ix(&f, "a");
    f.fighters[a].state.stunned = 1;
    assert_eq!(
        tag(ok(&f, "a", m(blow("b")), false, None)),
        "§6 bash results"
    );
    assert!(ok(&f, "a", m(MeleeCard::PassiveShieldParry), false, None).is_ok());
    f.fighters[a].state.stunned = 0;
    f.fighters[a].state.posture = Posture::Prone;
    // Down for any reason, it stands up with MOVE 1" (seed 003, MOVE 1": "standing up … he
    // uses this card"), not a rule of TOSS.
    assert_eq!(tag(ok(&f, "a", m(blow("b")), false, None)), "§6 MOVE 1\"");
    assert!(ok(&f, "a", m(MeleeCard::Move(MoveStep::StandUp)), false, None).is_ok());
    assert_eq!(
        cost_of(
            &f,
            "a",
            melee(vec![MeleeCard::Move(MoveStep::StandUp)]),
            false
        ),
        1
    );
    f.fighters[a].state.posture = Posture::Standing;
    f.fighters[a].state.restrained_by = vec!["b".into()];
    assert_eq!(tag(ok(&f, "a", m(blow("b")), false, None)), "§6 RESTRAINT");
    assert!(ok(&f, "a", m(MeleeCard::BreakFree), false, None).is_ok());
    f.fighters[a].state.restrained_by.clear();
    f.fighters[a].state.fallen = super::fight::Fallen::Dead;
    assert!(ok(&f, "a", m(MeleeCard::PassiveShieldParry), false, None).is_err());
}

#[test]
fn move_may_not_disengage_unless_heavier_or_more_dexterous() {
    let mut f = duel();
    let a = ix(&f, "a");
    let back = m(MeleeCard::Move(MoveStep::To(Dir(6))));
    assert_eq!(tag(ok(&f, "a", back.clone(), false, None)), "§6 MOVE");
    // Circling in contact is no disengaging.
    assert!(
        ok(
            &f,
            "a",
            m(MeleeCard::Move(MoveStep::To(Dir(4)))),
            false,
            None
        )
        .is_ok()
    );
    f.fighters[a].dex = 11 + tables().dex_disengage;
    assert!(ok(&f, "a", back.clone(), false, None).is_ok());
    f.fighters[a].dex = 11;
    f.fighters[a].weight = 255;
    assert!(ok(&f, "a", back, false, None).is_ok(), "outweighs by 50%");
    assert_eq!(
        cost_of(
            &f,
            "a",
            melee(vec![MeleeCard::Move(MoveStep::Face(Dir(0)))]),
            false
        ),
        1
    );
    // Agile beasts move free, up to their blows.
    f.fighters[a].profile.kind = super::tables::Kind::AgileBeast;
    assert_eq!(
        cost_of(
            &f,
            "a",
            melee(vec![MeleeCard::Move(MoveStep::To(Dir(4)))]),
            false
        ),
        0
    );
    assert_eq!(
        cost_of(
            &f,
            "a",
            melee(vec![MeleeCard::Dodge(DodgeDir::Back)]),
            false
        ),
        0
    );
    f.fighters[a].state.free_moves = 4;
    assert_eq!(
        cost_of(
            &f,
            "a",
            melee(vec![MeleeCard::Move(MoveStep::To(Dir(4)))]),
            false
        ),
        1
    );
}

#[test]
fn dodge_needs_half_an_inch_of_room() {
    let mut f = duel();
    assert!(ok(&f, "b", m(MeleeCard::Dodge(DodgeDir::Back)), false, None).is_ok());
    // A wall behind b.
    let k = f.board.index(Cell::new(7, 5));
    f.board.terrain[k] = 1;
    assert_eq!(
        tag(ok(
            &f,
            "b",
            m(MeleeCard::Dodge(DodgeDir::Back)),
            false,
            None
        )),
        "§6 DODGE"
    );
    // Someone to its left.
    let r = destrier();
    let mut g = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "a", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(6, 5), Dir(6)),
            figures(&r, "c", "footman", 1, Cell::new(6, 6), Dir(6)),
        ],
        &[],
    );
    assert!(ok(&g, "b", m(MeleeCard::Dodge(DodgeDir::Left)), false, None).is_err());
    assert!(ok(&g, "b", m(MeleeCard::Dodge(DodgeDir::Right)), false, None).is_ok());
    let b = ix(&g, "b");
    g.fighters[b].state.posture = Posture::Kneeling;
    assert!(ok(&g, "b", m(MeleeCard::Dodge(DodgeDir::Right)), false, None).is_err());
}

#[test]
fn horse_cards_costs_and_eligibility() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "k", "knight_on_destrier", 0, Cell::new(3, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(4, 5), Dir(6)),
        ],
        &[],
    );
    let mv = m(MeleeCard::Horse(HorseCard::Move));
    assert_eq!(
        tag(ok(&f, "k.mount", mv.clone(), false, None)),
        "§6 MOVE",
        "blocked ahead"
    );
    assert_eq!(tag(ok(&f, "k", mv, false, None)), "§6 HORSE MELEE CARDS");
    let wheel = |d: u8| m(MeleeCard::Horse(HorseCard::Wheel { facing: Dir(d) }));
    assert!(ok(&f, "k.mount", wheel(0), false, None).is_ok());
    assert!(
        ok(&f, "k.mount", wheel(1), false, None).is_err(),
        "a heading along the grid"
    );
    let trample = MeleeCard::Horse(HorseCard::Trample { target: "b".into() });
    assert_eq!(
        tag(ok(&f, "k.mount", m(trample.clone()), false, None)),
        "§6 TRAMPLE"
    );
    let b = ix(&f, "b");
    f.fighters[b].state.posture = Posture::Prone;
    assert!(ok(&f, "k.mount", m(trample.clone()), false, None).is_ok());
    assert_eq!(
        cost_of(&f, "k.mount", melee(vec![trample.clone()]), false),
        2
    );
    assert_eq!(
        cost_of(
            &f,
            "k.mount",
            melee(vec![trample, MeleeCard::Kick { target: "b".into() }]),
            false
        ),
        3
    );
    f.fighters[b].state.posture = Posture::Standing;
    let ham = m(MeleeCard::Horse(HorseCard::Hamstring {
        target: "k.mount".into(),
    }));
    assert!(ok(&f, "b", ham.clone(), false, None).is_ok());
    assert_eq!(
        cost_of(
            &f,
            "b",
            melee(vec![MeleeCard::Horse(HorseCard::Hamstring {
                target: "k.mount".into()
            })]),
            false
        ),
        1
    );
    f.fighters[b].state.hamstring_tried = true;
    assert_eq!(tag(ok(&f, "b", ham, false, None)), "§6 HAMSTRING HORSE");
}

#[test]
fn spells_prepare_cast_costs_and_mkl() {
    let r = destrier();
    let mut f = fight(
        board(GridKind::Square, 12, 12),
        vec![
            figures(&r, "w", "footman", 0, Cell::new(5, 5), Dir(2)),
            figures(&r, "b", "footman", 1, Cell::new(7, 5), Dir(6)),
        ],
        &["quick_step", "shackled", "ghoul_touch"],
    );
    let w = ix(&f, "w");
    f.fighters[w].profile = tables().fighter("hedge_mage");
    let bind = MeleeCard::CastSpell {
        spell: "bind".into(),
        target: Some("b".into()),
    };
    assert_eq!(
        cost_of(&f, "w", melee(vec![MeleeCard::PrepareSpell]), false),
        0
    );
    assert!(
        ok(&f, "w", m(bind.clone()), false, None).is_err(),
        "prepare first"
    );
    f.fighters[w].state.prepared = true;
    assert!(ok(&f, "w", m(bind.clone()), false, None).is_ok());
    assert_eq!(cost_of(&f, "w", melee(vec![bind.clone()]), false), 1);
    f.fighters[w].state.spells_cast = 1;
    assert_eq!(cost_of(&f, "w", melee(vec![bind.clone()]), false), 2);
    let quick = MeleeCard::CastSpell {
        spell: "quick_step".into(),
        target: None,
    };
    f.fighters[w].state.spells_cast = 0;
    assert_eq!(
        cost_of(
            &f,
            "w",
            melee(vec![quick.clone(), bind.clone(), quick.clone()]),
            false
        ),
        1 + 2 + 2
    );
    // MKL 4: after levels 1 + 2 a level-2 spell is too much; the first spell always goes.
    f.fighters[w].state.spells_cast = 2;
    f.fighters[w].state.spell_levels = 3;
    assert!(ok(&f, "w", m(bind.clone()), false, None).is_err());
    f.fighters[w].state.spells_cast = 0;
    f.fighters[w].profile.mkl = 1;
    assert!(ok(&f, "w", m(bind.clone()), false, None).is_ok());
    // A friend spell on an enemy, a ruleset without the condition, the ghoul's touch range.
    f.fighters[w].profile.mkl = 4;
    let wrong = MeleeCard::CastSpell {
        spell: "quick_step".into(),
        target: Some("b".into()),
    };
    assert!(ok(&f, "w", m(wrong), false, None).is_err());
    f.conditions.clear();
    assert!(ok(&f, "w", m(bind), false, None).is_err());
    let mut g = f.clone();
    g.conditions = vec!["ghoul_touch".into()];
    let gw = ix(&g, "w");
    g.fighters[gw].profile = tables().fighter("ghoul");
    let touch = MeleeCard::CastSpell {
        spell: "ghoul_touch".into(),
        target: Some("b".into()),
    };
    assert!(
        ok(&g, "w", m(touch.clone()), false, None).is_err(),
        "touch: contact only"
    );
    g.place(gw, Cell::new(6, 5), Dir(2));
    assert!(
        ok(&g, "w", m(touch), false, None).is_ok(),
        "innate: no PREPARE"
    );
    assert!(ok(&g, "w", m(MeleeCard::PrepareSpell), false, None).is_err());
}

#[test]
fn hand_lists_every_card_with_cost_and_verdict() {
    let f = duel();
    let h = super::hand::hand(&f, tables(), 0, false);
    let names: std::collections::BTreeSet<&str> = h
        .iter()
        .map(|c| match &c.card {
            Card::Tac(t) => t.name(),
            Card::Melee(m) => m.name(),
        })
        .collect();
    for n in [
        "RETREAT",
        "RUN AWAY",
        "CLOSE",
        "KEEP DISTANCE",
        "STAND GROUND",
        "FLECHE",
        "CHARGE",
        "FIRE/THROW MISSILE",
        "RELOAD",
        "DRAW WEAPON",
        "PREPARE SPELL",
        "PULL RIDER FROM SADDLE",
        "RESTRAINT",
        "TOSS",
        "BREAK FREE",
        "PUNCH",
        "KICK",
        "DELIVER BLOW",
        "FEROCITY",
        "GREAT BLOW",
        "MOVE 1\"",
        "WEAPON PARRY",
        "DESPERATE DEFENSE",
        "ACTIVE SHIELD PARRY",
        "PASSIVE SHIELD PARRY",
        "DODGE LEFT",
        "DODGE RIGHT",
        "DODGE BACK",
        "MOVE (horse)",
        "WHEEL",
        "TRAMPLE PRONE FIGURE",
        "HAMSTRING HORSE",
    ] {
        assert!(names.contains(n), "{n} missing from the hand");
    }
    let blow_b = h
        .iter()
        .find(|c| c.card == Card::Melee(blow("b")))
        .expect("DELIVER BLOW → b");
    assert_eq!((blow_b.cost, blow_b.verdict.is_ok()), (1, true));
    let gb = h
        .iter()
        .find(|c| matches!(&c.card, Card::Melee(MeleeCard::GreatBlow { .. })))
        .expect("gb");
    assert_eq!(gb.verdict.as_ref().unwrap_err().tag, "§6 GREAT BLOW");
}
