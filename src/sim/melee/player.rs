//! The melee's orders: face-down card plays, passes, dodge guesses and `EndSide` in the melee
//! phases (D7, D9), and the melee's checks on other orders.

use super::*;

pub(super) fn refuse<T>(s: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal(s.into()))
}

/// A berserk may not carry while surrounded (§6 FEROCITY): the check of an `Activity` beyond
/// [`check_can_act`]. Only a berserk's carrying needs the field.
pub fn check_berserk_carry(
    world: &mut World,
    unit: &str,
    activity: crate::rules::ruleset::Activity,
) -> Result<(), Refusal> {
    use crate::rules::melee::berserk;
    let berserk = crate::sim::world::find_figure(world, unit)
        .and_then(|e| world.get::<CombatStatus>(e))
        .is_some_and(|c| c.0.berserk);
    let surrounded = berserk && {
        let (fight, _) = super::kept_fight(world);
        fight
            .index_of(unit)
            .is_some_and(|i| berserk::surrounded(&fight, i))
    };
    berserk::carry_ok(berserk, surrounded, activity).map_err(Refusal)
}

/// Standing up (D15) gets a figure off the ground: the apply of an accepted `StandUp`.
pub fn stand_up(world: &mut World, unit: &str) {
    if let Some(e) = crate::sim::world::find_figure(world, unit)
        && let Some(mut c) = world.get_mut::<CombatStatus>(e)
    {
        c.0.posture = Posture::Standing;
    }
}

/// Whether a figure may act at all now (move, mount, take an activity): not dead, not out of
/// the fight, not restrained, and standing unless the act is standing up (D15, §6). `Err`
/// says why, in the rule's words.
pub fn check_can_act(world: &mut World, unit: &str, standing_up: bool) -> Result<(), Refusal> {
    let Some(e) = crate::sim::world::find_figure(world, unit) else {
        return Ok(());
    };
    let Some(st) = world.get::<CombatStatus>(e).map(|c| c.0.clone()) else {
        return Ok(());
    };
    match st.fallen {
        Fallen::Dead => return refuse(format!("{unit} is dead")),
        Fallen::Incapacitated => return refuse(format!("{unit} is incapacitated")),
        Fallen::Up => {}
    }
    if !st.restrained_by.is_empty() {
        return refuse(format!(
            "§6 RESTRAINT: {unit} is restrained by {}; it must BREAK FREE in a melee first",
            st.restrained_by.join(", ")
        ));
    }
    if st.posture != Posture::Standing && !standing_up {
        return refuse(format!(
            "D15: {unit} is on the ground; it must stand up first (Activity StandUp)"
        ));
    }
    Ok(())
}

pub(crate) fn not_now(phase: Phase) -> Result<(), Refusal> {
    refuse(format!(
        "D6/D7: cards are played in the TAC phase and the melee rounds, when a melee waits for them; it is the {}",
        phase.label()
    ))
}

pub(super) fn fighter_index(world: &World, unit: &str) -> Result<usize, Refusal> {
    let s = world.resource::<MeleeState>();
    let fight = s.fight.as_ref().expect("a melee in progress");
    fight
        .index_of(unit)
        .ok_or_else(|| Refusal(format!("there is no figure {unit:?}")))
}

pub(crate) fn play_cards(
    world: &mut World,
    phase: Phase,
    unit: &str,
    tac: Option<TacCard>,
    tac_target: Option<String>,
    melee: Vec<MeleeCard>,
) -> Result<(), Refusal> {
    let i = fighter_index(world, unit)?;
    let s = world.resource::<MeleeState>();
    if s.stage != Stage::Choosing {
        return refuse("D7: the cards are face up; opponents are guessing the dodges");
    }
    if !s.waiting.contains(&i) {
        // C8: a steed at speed plays MOVE by force; name that rule for the cards asked for.
        if let Some(f) = s.fight.as_ref()
            && crate::rules::melee::cards::at_speed(&f.fighters[i])
        {
            let c = Choice {
                tac,
                tac_target,
                melee,
                forfeit: false,
            };
            return refuse(match check_play(f, i, &c, tables(), f.round == 0) {
                Err(e) => e.to_string(),
                Ok(_) => format!(
                    "C8: {unit} moved at canter or faster: it runs on with MOVE this round, \
                     played for it"
                ),
            });
        }
        return refuse(format!(
            "{unit} has no cards to choose now (it is not in the melee, has chosen already, or its play is forced)"
        ));
    }
    let fight = s.fight.as_ref().expect("a melee in progress");
    let c = Choice {
        tac,
        tac_target,
        melee,
        forfeit: false,
    };
    check_play(fight, i, &c, tables(), fight.round == 0).map_err(|e| Refusal(e.to_string()))?;
    let mut s = world.resource_mut::<MeleeState>();
    s.choices[i] = Some(c);
    s.waiting.retain(|&x| x != i);
    log_what(
        world,
        phase,
        format!("{unit} chooses its cards, face down."),
        Happening::ChoseFaceDown(unit.to_string()),
    );
    Ok(())
}

pub(crate) fn pass(world: &mut World, phase: Phase, unit: &str) -> Result<(), Refusal> {
    let i = fighter_index(world, unit)?;
    let t = tables();
    let mut s = world.resource_mut::<MeleeState>();
    match s.stage {
        Stage::Choosing => {
            if !s.waiting.contains(&i) {
                return refuse(format!("{unit} has no cards to choose now"));
            }
            let fight = s.fight.as_ref().expect("a melee in progress");
            let c = flow::pass_play(fight, t, i, fight.round == 0);
            s.choices[i] = Some(c);
            s.waiting.retain(|&x| x != i);
            log_what(
                world,
                phase,
                // Words and data as for cards chosen: a pass is secret until the cards are faced
                // (D9), so the other side must not learn it from the log.
                format!("{unit} chooses its cards, face down."),
                Happening::ChoseFaceDown(unit.to_string()),
            );
        }
        Stage::Guessing => {
            if !s.to_guess.iter().any(|&(g, _)| g == i) {
                return refuse(format!("{unit} has no dodge to guess"));
            }
            s.to_guess.retain(|&(g, _)| g != i);
            say(world, phase, format!("{unit} makes no guess."));
        }
        Stage::Idle | Stage::NextRound => return not_now(phase),
    }
    Ok(())
}

pub(crate) fn guess_dodge(
    world: &mut World,
    phase: Phase,
    unit: &str,
    target: &str,
    dir: DodgeDir,
) -> Result<(), Refusal> {
    let g = fighter_index(world, unit)?;
    let d = fighter_index(world, target)?;
    let mut s = world.resource_mut::<MeleeState>();
    if s.stage != Stage::Guessing || !s.to_guess.contains(&(g, d)) {
        return refuse(format!(
            "§6 DODGE: {unit} has no dodge of {target} to guess now"
        ));
    }
    s.to_guess.retain(|&x| x != (g, d));
    s.guesses.push(Guess {
        guesser: g,
        dodger: d,
        dir,
    });
    say(
        world,
        phase,
        format!("{unit} guesses which way {target} dodges."),
    );
    Ok(())
}

/// `PassMelee`: every figure of the side passes for the rest of this melee phase — its
/// choices still to make are passes, its later rounds are played as passes, its dodge guesses
/// are none. Refused when the side has nothing to choose or guess now.
pub(crate) fn pass_side(world: &mut World, phase: Phase, side: &str) -> Result<(), Refusal> {
    let Some(n) = world
        .resource::<TurnState>()
        .side_names
        .iter()
        .position(|x| x == side)
    else {
        return refuse(format!("there is no side {side:?}"));
    };
    let s = world.resource::<MeleeState>();
    let fight = s.fight.as_ref().expect("a melee in progress");
    let mine: Vec<usize> = (0..fight.fighters.len())
        .filter(|&i| fight.fighters[i].side as usize == n)
        .collect();
    let asked = |i: &usize| s.waiting.contains(i) || s.to_guess.iter().any(|(g, _)| g == i);
    if !mine.iter().any(asked) {
        return refuse(format!(
            "D7: no figure of {side} has cards to choose or a dodge to guess now"
        ));
    }
    pass_for_good(&mut world.resource_mut::<MeleeState>(), &mine);
    say(
        world,
        phase,
        format!(
            "{side} passes for the rest of this melee phase (PASSIVE SHIELD PARRY; when D7 forbids a seventh, the first card it may play)."
        ),
    );
    Ok(())
}

/// Figures `who` pass for the rest of the melee phase: each one still to choose plays its pass
/// now (PASSIVE SHIELD PARRY, or what D7 forces), later rounds play it for them, and their
/// dodge guesses are none. Serves `PassMelee` (one side) and `EndSide` (everyone asked).
fn pass_for_good(s: &mut MeleeState, who: &[usize]) {
    let t = tables();
    let fight = s.fight.take().expect("a melee in progress");
    for &i in who {
        s.passing[i] = true;
        if s.waiting.contains(&i) {
            s.choices[i] = Some(flow::pass_play(&fight, t, i, fight.round == 0));
        }
    }
    s.waiting.retain(|i| !who.contains(i));
    s.to_guess.retain(|(g, _)| !who.contains(g));
    s.fight = Some(fight);
}

/// `EndSide` in a melee: nobody is asked again this melee phase. Every figure still to
/// choose, and every figure in the later card rounds, passes; guesses not made are none.
pub(crate) fn end_choices(world: &mut World, phase: Phase) -> Result<(), Refusal> {
    let mut s = world.resource_mut::<MeleeState>();
    let asked: Vec<usize> = s
        .waiting
        .iter()
        .copied()
        .chain(s.to_guess.iter().map(|&(g, _)| g))
        .collect();
    let fight = s.fight.as_ref().expect("a melee in progress");
    let names: Vec<String> = asked
        .iter()
        .map(|&i| fight.fighters[i].id.clone())
        .collect();
    pass_for_good(&mut s, &asked);
    s.pass_all = true;
    say(
        world,
        phase,
        format!(
            "End of choosing: {} and every figure after them pass for the rest of this melee phase (PASSIVE SHIELD PARRY; when D7 forbids a seventh, the first card they may play).",
            if names.is_empty() {
                "nobody".to_string()
            } else {
                names.join(", ")
            }
        ),
    );
    Ok(())
}

/// `CalmBerserk` (§6 FEROCITY), in a half-move: the friend's try is checked and rolled with the
/// game's dice by [`crate::rules::melee::berserk::calm`] (20% less to be turned on when the
/// friend is the berserk's [`Beloved`]), logged, and both figures' combat states written back.
pub fn calm_berserk(
    world: &mut World,
    phase: Phase,
    unit: &str,
    berserk: &str,
) -> Result<(), Refusal> {
    let (mut fight, entities) = build_fight(world);
    let c = fighter_index_in(&fight, unit)?;
    let b = fighter_index_in(&fight, berserk)?;
    let turn = world.resource::<TurnState>().turn;
    crate::rules::melee::berserk::calm_ok(&fight, c, b, turn).map_err(Refusal)?;
    let beloved = world
        .get::<Beloved>(entities[b])
        .is_some_and(|l| l.0 == fight.fighters[c].id);
    let events = world.resource_scope(|_, mut dice: Mut<Dice>| {
        crate::rules::melee::berserk::calm(&mut fight, c, b, turn, beloved, &mut *dice)
    });
    for i in [c, b] {
        let st = fight.fighters[i].state.clone();
        world.entity_mut(entities[i]).insert(CombatStatus(st));
    }
    log_events(world, phase, events);
    Ok(())
}

fn fighter_index_in(fight: &Fight, unit: &str) -> Result<usize, Refusal> {
    fight
        .index_of(unit)
        .ok_or_else(|| Refusal(format!("there is no figure {unit:?}")))
}
