//! The melee phases' system: the TAC phase and each card round set up, faced (D9), resolved
//! and logged (D6–D8).

use super::*;

pub(super) fn say(world: &mut World, phase: Phase, text: String) {
    log_events(world, phase, vec![Event::say(text)]);
}

/// The melee system of the TAC phase and the card rounds (D6–D8).
pub fn melee_phase(world: &mut World) {
    let phase = *world.resource::<State<Phase>>().get();
    let t = tables();
    let idle = world.resource::<MeleeState>().stage == Stage::Idle;
    if idle {
        if phase == Phase::MeleeRounds {
            world
                .resource_mut::<NextState<Phase>>()
                .set(Phase::EndOfTurn);
            return;
        }
        let (fight, entities) = kept_fight(world);
        if !flow::melee_starts(&fight, t) {
            say(
                world,
                phase,
                "No figures are in contact: there is no melee this turn (D6).".into(),
            );
            world
                .resource_mut::<NextState<Phase>>()
                .set(Phase::MeleeRounds);
            return;
        }
        let mut fight = std::sync::Arc::unwrap_or_clone(fight);
        let entities = entities.to_vec();
        flow::begin_turn(&mut fight);
        flow::begin_phase(&mut fight);
        let who = flow::participants(&fight, t, true);
        let names: Vec<String> = who.iter().map(|&i| fight.fighters[i].id.clone()).collect();
        if names.is_empty() {
            // In contact, but nobody who can fight (say a riderless horse beside an enemy).
            say(
                world,
                phase,
                "No figure that can fight is in contact: there is no melee this turn (D6).".into(),
            );
            world
                .resource_mut::<NextState<Phase>>()
                .set(Phase::MeleeRounds);
            return;
        }
        let att = world.resource::<TurnState>().side_name(fight.attacker);
        let first = match &fight.first_half {
            Some(f) if f.attacker != fight.attacker && !f.pairs.is_empty() => format!(
                " — but where contact was made in the first half-move ({}), {} the first initiative's attack",
                f.pairs
                    .iter()
                    .map(|(a, b)| format!("{a} and {b}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                keeper(&world.resource::<TurnState>().side_name(f.attacker)),
            ),
            _ => String::new(),
        };
        say(
            world,
            phase,
            format!(
                "Melee: {} take part; {att} won the initiative and {} the attacker{first} (D6). Blows are restored.",
                names.join(", "),
                crate::rules::words::SideWords(&att).verb("is", "are")
            ),
        );
        write_back(world, &fight, &entities, false);
        let n = fight.fighters.len();
        let mut s = world.resource_mut::<MeleeState>();
        s.fight = Some(fight);
        s.entities = entities;
        s.passing = vec![false; n];
        setup_round(world, phase);
    }
    progress(world, phase);
}

/// "Red keeps" or "Germans keep" (issue 34: a side named as a plural takes a plural verb).
fn keeper(side: &str) -> String {
    let verb = crate::rules::words::SideWords(side).verb("keeps", "keep");
    format!("{side} {verb}")
}

/// Prepares the choices of a new round: forced and passing figures play at once, the rest
/// are asked.
pub(super) fn setup_round(world: &mut World, phase: Phase) {
    let t = tables();
    let mut s = world.resource_mut::<MeleeState>();
    let Some(fight) = s.fight.take() else { return };
    let tac_phase = fight.round == 0;
    let n = fight.fighters.len();
    let mut choices = vec![None; n];
    let mut waiting = Vec::new();
    for i in flow::participants(&fight, t, tac_phase) {
        if s.pass_all || s.passing.get(i).copied().unwrap_or(false) {
            choices[i] = Some(flow::pass_play(&fight, t, i, tac_phase));
        } else if let Some(c) = flow::forced(&fight, t, i, tac_phase) {
            choices[i] = Some(c);
        } else {
            waiting.push(i);
        }
    }
    let names: Vec<String> = waiting
        .iter()
        .map(|&i| fight.fighters[i].id.clone())
        .collect();
    let round = fight.round;
    s.fight = Some(fight);
    s.choices = choices;
    s.waiting = waiting;
    s.to_guess.clear();
    s.guesses.clear();
    s.stage = Stage::Choosing;
    if !names.is_empty() {
        let what = if round == 0 {
            "a TAC card and MELEE cards".to_string()
        } else {
            format!("MELEE cards for card round {round}")
        };
        let text = format!(
            "Waiting for {what}, face down, from: {} (D6, D9).",
            names.join(", ")
        );
        log_what(world, phase, text, Happening::AwaitingCards(names));
    }
}

/// Resolves rounds while every choice is in; stops to wait, or ends the phase.
pub(super) fn progress(world: &mut World, phase: Phase) {
    let t = tables();
    for _ in 0..256 {
        if world.resource::<MeleeState>().stage == Stage::NextRound {
            setup_round(world, phase);
        }
        let s = world.resource::<MeleeState>();
        if s.stage == Stage::Idle || s.waits() {
            return;
        }
        if s.stage == Stage::Choosing {
            let fight = s.fight.as_ref().expect("a melee in progress");
            let need = s.guesses_needed(&s.choices);
            if !need.is_empty() {
                let shown = reveal_but_dodges(fight, &s.choices);
                let pairs: Vec<(String, String)> = need
                    .iter()
                    .map(|&(g, d)| (fight.fighters[g].id.clone(), fight.fighters[d].id.clone()))
                    .collect();
                let asks: Vec<String> = pairs
                    .iter()
                    .map(|(g, d)| format!("{g} guesses which way {d} dodges"))
                    .collect();
                let mut s = world.resource_mut::<MeleeState>();
                s.to_guess = need;
                s.stage = Stage::Guessing;
                let text = format!(
                    "Cards face up: {shown}. Before the DODGE cards are faced: {} (D7).",
                    asks.join("; ")
                );
                log_what(world, phase, text, Happening::DodgesAsked(pairs));
                return;
            }
        }
        let mut s = world.resource_mut::<MeleeState>();
        let mut fight = s.fight.take().expect("a melee in progress");
        let choices = std::mem::take(&mut s.choices);
        let guesses = std::mem::take(&mut s.guesses);
        let entities = s.entities.clone();
        let was_tac = fight.round == 0;
        let events = world.resource_scope(|_, mut dice: Mut<Dice>| {
            resolve::resolve(&mut fight, t, &choices, &guesses, &mut *dice)
        });
        log_events(world, phase, events);
        let going = flow::melee_on(&fight, t) && fight.round < 200;
        if !going {
            let events = world
                .resource_scope(|_, mut dice: Mut<Dice>| flow::end_phase(&mut fight, &mut *dice));
            log_events(world, phase, events);
            write_back(world, &fight, &entities, true);
            say(world, phase, summary(&fight));
            let mut s = world.resource_mut::<MeleeState>();
            *s = MeleeState::default();
            world
                .resource_mut::<NextState<Phase>>()
                .set(Phase::EndOfTurn);
            return;
        }
        write_back(world, &fight, &entities, false);
        let mut s = world.resource_mut::<MeleeState>();
        s.fight = Some(fight);
        s.stage = Stage::NextRound;
        if was_tac {
            world
                .resource_mut::<NextState<Phase>>()
                .set(Phase::MeleeRounds);
            return;
        }
    }
}

pub(super) fn reveal_but_dodges(fight: &Fight, choices: &[Option<Choice>]) -> String {
    choices
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let c = c.as_ref()?;
            let mut parts: Vec<String> = Vec::new();
            if let Some(t) = c.tac {
                parts.push(t.name().to_string());
            }
            for m in &c.melee {
                parts.push(match m {
                    MeleeCard::Dodge(_) => "a DODGE card (face down)".to_string(),
                    m => m.to_string(),
                });
            }
            if parts.is_empty() {
                parts.push("PASSIVE SHIELD PARRY".into());
            }
            Some(format!("{}: {}", fight.fighters[i].id, parts.join(" + ")))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

pub(super) fn summary(fight: &Fight) -> String {
    let fallen: Vec<String> = fight
        .fighters
        .iter()
        .filter(|f| f.state.fallen != Fallen::Up)
        .map(|f| {
            format!(
                "{} {}",
                f.id,
                if f.state.fallen == Fallen::Dead {
                    "dead"
                } else {
                    "out of the fight"
                }
            )
        })
        .collect();
    if fallen.is_empty() {
        "The melee phase ends: blows are spent or contact is broken.".into()
    } else {
        format!(
            "The melee phase ends: blows are spent or contact is broken ({}).",
            fallen.join(", ")
        )
    }
}
