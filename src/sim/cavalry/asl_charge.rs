//! ASL's Charge (A16) and Cavalry Wave (A17): the declaration, the ride into the target's hex
//! paying 3 MF more, the defender's fire at point blank (A12, A14) with its consequences
//! (A13), and the cavalry's own attack, not halved and not penalised for CX (A11, A16).

use super::*;

/// A16: the checks of a Charge declaration, changing nothing: the charger's entity, its
/// horse's gallop, the target unit and its hex. `wave` checks as if the charger already
/// galloped (A17 puts the whole chain in a Gallop first).
fn check_declare(
    world: &mut World,
    unit: &str,
    targets: &[String],
    wave: bool,
) -> Result<(Entity, bool, Entity, Cell), Refusal> {
    let e = own(world, unit)?;
    let [target] = targets else {
        return refuse("A16: a Charge is declared against one enemy-occupied hex: name one unit");
    };
    let Some(m) = world.get::<RidingOn>(e).map(|r| r.0) else {
        return refuse("A16: only Cavalry (a mounted unit) may Charge");
    };
    let Some(t) = find_figure(world, target) else {
        return refuse(format!("there is no figure {target:?}"));
    };
    let t = world.get::<CarriedBy>(t).map_or(t, |c| c.0);
    if is_riderless_horse(world, t) {
        return refuse("A18: horses are never enemies");
    }
    let side = world.get::<SideId>(e).map(|s| s.0);
    if world.get::<SideId>(t).map(|s| s.0) == side {
        return refuse(format!("A16: {target} is not an enemy"));
    }
    let grid = world.resource::<Rules>().0.grid;
    let (at, hex) = (cell_of(world, e), cell_of(world, t));
    let board = world.resource::<Map>().0.clone();
    let h = world.get::<AslHorse>(m).copied().unwrap_or_default();
    let terrain = board.terrain_at(hex);
    let into = !terrain.no_gallop && terrain.multiplier(true).is_some();
    charge_ok(
        grid.distance(at, hex),
        sight(&board, at, hex),
        h.galloping || wave,
        h.cx && !wave,
        into,
    )
    .map_err(Refusal)?;
    Ok((e, h.galloping, t, hex))
}

/// A16: declares a Charge against one enemy unit (declaring the Gallop if need be). The
/// Gallop is checked with the Charge, before either is written.
pub(crate) fn asl_declare(
    world: &mut World,
    unit: &str,
    targets: &[String],
) -> Result<(), Refusal> {
    let (e, galloping, t, hex) = check_declare(world, unit, targets, false)?;
    let gallop = if galloping {
        None
    } else {
        Some(check_gallop(world, unit)?)
    };
    if let Some((rider, plan)) = gallop {
        let phase = *world.resource::<State<Phase>>().get();
        super::super::orders::apply_gait(world, unit, plan, phase);
        debug_assert_eq!(rider, e);
    }
    set_charge(world, unit, e, t, hex);
    Ok(())
}

/// The checks of the Gallop a Charge or a Cavalry Wave declares (A10, A16, A17), as the
/// `SetGait` order makes them: the unit may act, it is its side's half-move, its horse may
/// gallop.
fn check_gallop(
    world: &mut World,
    unit: &str,
) -> Result<(Entity, super::super::orders::GaitPlan), Refusal> {
    super::super::melee::check_can_act(world, unit, false)?;
    let e = super::super::orders::own_unit(world, unit)?;
    let phase = *world.resource::<State<Phase>>().get();
    let plan = super::super::orders::check_gait(world, e, Gait::Gallop, phase)?;
    Ok((e, plan))
}

/// The apply of a checked Charge declaration (A16).
fn set_charge(world: &mut World, unit: &str, e: Entity, t: Entity, hex: Cell) {
    if let Some(mut a) = world.get_mut::<AslCavalry>(e) {
        a.charge = Some((t, hex));
    } else {
        world.entity_mut(e).insert(AslCavalry {
            charge: Some((t, hex)),
            ..Default::default()
        });
    }
    let tid = id_of(world, t);
    log_now(
        world,
        format!("{unit} declares a Charge against {tid} in {hex} (A16)."),
    );
}

/// A16: the move that enters the target's hex: 3 MF more on entry, the defender's fire at
/// point blank, then the cavalry's attack. The entry must be the move's last step; the unit
/// may then move on with a new order.
pub(super) fn charge_move(
    world: &mut World,
    e: Entity,
    unit: &str,
    steps: &[Step],
    target: Entity,
    hex: Cell,
) -> Option<Result<(), Refusal>> {
    if world.get::<Position>(target).map(|p| p.0) != Some(hex) {
        return None;
    }
    let setup = setup_move(world, e);
    if let Some(why) = setup.blocked.clone() {
        return Some(refuse(why));
    }
    let mut board = world.resource::<Map>().0.clone();
    let i = board.index(hex);
    board.occupant[i] = 0;
    let mut pose = setup.pose;
    let mut spent = Mp::ZERO;
    let mut entered = None;
    for (k, &s) in steps.iter().enumerate() {
        let (p, c) = match setup.mover.try_step(&board, &pose, s) {
            Ok(x) => x,
            Err(_) => return None,
        };
        spent += c;
        if p.cell == hex {
            entered = Some(k);
            break;
        }
        pose = p;
    }
    let k = entered?;
    if k + 1 != steps.len() {
        return Some(refuse(
            "A16: the Charge is the move's last step; give the steps beyond the target's hex as a new Move",
        ));
    }
    let total = spent + Mp::cells(CHARGE_MF);
    if total > setup.left {
        return Some(refuse(format!(
            "A16: entering the target's hex costs {spent} MF plus {CHARGE_MF} MF for the Charge; only {} MF left",
            setup.left
        )));
    }
    // The approach: the last hex before the target's.
    let path = path_cells(world, e, &steps[..k]).unwrap_or_else(|| vec![setup.pose.cell]);
    let approach = *path.last().unwrap_or(&setup.pose.cell);
    let m = setup.mover_entity;
    for x in [e, m] {
        if let Some(mut p) = world.get_mut::<Position>(x) {
            p.0 = approach;
        }
    }
    if let Some(mut a) = world.get_mut::<Allowance>(m) {
        a.left -= total;
        a.used_any = true;
    }
    if let Some(mut h) = world.get_mut::<AslHorse>(m) {
        h.mf.used += total;
    }
    if let Some(mut a) = world.get_mut::<AslCavalry>(e) {
        a.charge = None;
        a.charged = true;
    }

    sync_occupancy(world);
    let tid = id_of(world, target);
    log_now(
        world,
        format!(
            "{unit} Charges into {hex}, held by {tid}: {spent} MF to enter plus {CHARGE_MF} MF for the Charge (A16)."
        ),
    );
    let events = world.resource_scope(|world, mut dice: Mut<Dice>| {
        resolve_charge(world, e, m, target, &mut dice)
    });
    let phase = *world.resource::<State<Phase>>().get();
    log_events(world, phase, events);
    if world.get_entity(target).is_err() && world.get::<RidingOn>(e).is_some() {
        for x in [e, m] {
            if let Some(mut p) = world.get_mut::<Position>(x) {
                p.0 = hex;
            }
        }
        log_now(world, format!("{unit} takes the hex {hex} (A16)."));
    } else if world.get_entity(e).is_ok() {
        let at = cell_of(world, e);
        let left = world.get::<Allowance>(m).map_or(Mp::ZERO, |a| a.left);
        let tid = id_of(world, target);
        let how = if world.get::<RidingOn>(e).is_some() {
            format!("it may stay, dismount or move on (even Charge again) with its {left} MF left")
        } else {
            "it may stay or move on on foot".to_string()
        };
        log_now(
            world,
            format!(
                "{unit} stays in contact with {tid} at {at}: the hex is still held and units do not \
                 share a hex here (D10a); {how}, but may not fire in the advancing fire phase. \
                 Staying, it and {tid} are locked in close combat in the melee phase (A16)."
            ),
        );
    }
    sync_occupancy(world);
    Some(Ok(()))
}

/// A unit's firepower: its template's, in proportion to the half-squads left of it (a squad
/// of the template's two half-squads reduced or Deployed to one fires as a half-squad: the
/// 2-3-7 of 13.6's example Charges with 2 FP, six at triple point blank).
pub(crate) fn fp_of(world: &World, e: Entity) -> i32 {
    let Some(key) = world.get::<TemplateKey>(e) else {
        return 0;
    };
    let fp = tables().firepower(&key.0);
    let whole = world
        .resource::<Rules>()
        .0
        .templates
        .get(&key.0)
        .map_or(1, |t| i32::from(t.body.max(1)));
    let left = world.get::<Body>(e).map_or(whole, |b| i32::from(b.left));
    fp * left.min(whole) / whole
}

fn broken(world: &World, e: Entity) -> bool {
    world.get::<AslCavalry>(e).is_some_and(|a| a.broken)
}

/// The defender's point-blank fire at the charging cavalry and its horses, then the Charge
/// attack itself.
fn resolve_charge(
    world: &mut World,
    e: Entity,
    m: Entity,
    target: Entity,
    dice: &mut Dice,
) -> Vec<Event> {
    let t = tables().asl_fire;
    let mut out = Vec::new();
    let (cid, tid) = (id_of(world, e), id_of(world, target));
    let tfp = fp_of(world, target);
    if tfp > 0 && !broken(world, target) {
        let shot = Shot {
            fp: tfp,
            range: 0,
            mounted: world.get::<RidingOn>(target).is_some(),
            at_cavalry: true,
            ..Default::default()
        };
        let (chance, parts) = fire_chance(&t, &shot);
        let v = dice.roll(100);
        let res = fire_result(&t, chance, v);
        out.push(note(
            format!(
                "{tid} fires at the charging {cid} at triple point blank: {} = {chance}%; d100 rolls {v}: {}.",
                words(&parts),
                fire_words(res)
            ),
            v,
            &tid,
        ));
        let hc = horse_chance(&t, &shot);
        let hv = dice.roll(100);
        let hres = horse_result(&t, hc, hv);
        out.push(note(
            format!(
                "The same fire against {cid}'s horses (A14): {hc}%, no cavalry or FFMO bonus; d100 rolls {hv}: {}.",
                match hres {
                    HorseResult::None => "the horses are unharmed",
                    HorseResult::Reduced => "a horse is lost",
                    HorseResult::Killed => "the horses are killed",
                }
            ),
            hv,
            &tid,
        ));
        apply_to(world, e, res, &mut out);
        if world.get_entity(m).is_ok() {
            apply_to_horses(world, e, m, hres, &mut out);
        }
    }
    let able = world.get_entity(e).is_ok()
        && world.get::<RidingOn>(e).is_some()
        && !broken(world, e)
        && world.get_entity(target).is_ok();
    if !able {
        out.push(Event::say(format!("{cid} cannot make its Charge attack.")));
        return out;
    }
    let fp = fp_of(world, e);
    let shot = Shot {
        fp,
        range: 0,
        mounted: true,
        charge_or_cc: true,
        cx: world.get::<AslHorse>(m).is_some_and(|h| h.cx),
        at_cavalry: world.get::<RidingOn>(target).is_some(),
        ffmo: false,
    };
    let (chance, parts) = fire_chance(&t, &shot);
    if chance == 0 {
        out.push(Event::say(format!(
            "{cid} has no firepower of its own: its Charge makes no attack (A16)."
        )));
        return out;
    }
    let v = dice.roll(100);
    let res = fire_result(&t, chance, v);
    out.push(note(
        format!(
            "{cid}'s Charge attack on {tid} at triple point blank, not halved for mounted fire nor penalised for CX (A11, A16): {} = {chance}%; d100 rolls {v}: {}.",
            words(&parts),
            fire_words(res)
        ),
        v,
        &cid,
    ));
    apply_to(world, target, res, &mut out);
    out.push(Event::say(format!(
        "{cid} charged this movement phase and may not fire in the advancing fire phase (A16)."
    )));
    out
}

fn note(text: String, v: u32, by: &str) -> Event {
    Event::on_d100(text, v, by)
}

fn words(parts: &[(String, i32)]) -> String {
    parts
        .iter()
        .map(|(n, v)| format!("{n} {v:+}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn fire_words(r: FireResult) -> &'static str {
    match r {
        FireResult::None => "no lasting effect",
        FireResult::Broken => "it breaks",
        FireResult::Reduced => "Casualty Reduction",
        FireResult::Eliminated => "eliminated",
    }
}

/// A fire result on a personnel unit; broken Cavalry bails out and its horse bolts (A13).
pub(crate) fn apply_to(world: &mut World, u: Entity, r: FireResult, out: &mut Vec<Event>) {
    let id = id_of(world, u);
    let mut r = r;
    if r == FireResult::Reduced {
        let left = world.get::<Body>(u).map_or(0, |b| b.left.saturating_sub(1));
        if let Some(mut b) = world.get_mut::<Body>(u) {
            b.left = left;
        }
        if left == 0 {
            r = FireResult::Eliminated;
        } else {
            out.push(Event::say(format!("{id} is reduced ({left} left).")));
        }
    }
    match r {
        FireResult::Eliminated => {
            out.push(Event::say(format!("{id} is eliminated.")));
            let horse = world.get::<RidingOn>(u).map(|x| x.0);
            if let Some(h) = horse {
                world.entity_mut(h).remove::<CarriedBy>();
            }
            world.entity_mut(u).despawn();
        }
        FireResult::Broken => {
            if let Some(mut a) = world.get_mut::<AslCavalry>(u) {
                a.broken = true;
            }
            if let Some(mut c) = world.get_mut::<Conditions>(u) {
                c.0.push("broken (A13)".into());
            }
            if let Some(h) = world.get::<RidingOn>(u).map(|x| x.0) {
                world.entity_mut(u).remove::<RidingOn>();
                world.entity_mut(h).despawn();
                out.push(Event::say(format!(
                    "{id} breaks and bails out; horses have no morale, and its horse bolts and is removed (A13)."
                )));
            } else {
                out.push(Event::say(format!("{id} breaks.")));
            }
        }
        _ => {}
    }
}

/// A14: what fire does to the horses; the rider of a lost horse bails out.
pub(crate) fn apply_to_horses(
    world: &mut World,
    rider: Entity,
    m: Entity,
    r: HorseResult,
    out: &mut Vec<Event>,
) {
    let hid = id_of(world, m);
    let killed = match r {
        HorseResult::None => return,
        HorseResult::Killed => true,
        HorseResult::Reduced => {
            let left = world.get::<Body>(m).map_or(0, |b| b.left.saturating_sub(1));
            if let Some(mut b) = world.get_mut::<Body>(m) {
                b.left = left;
            }
            left == 0
        }
    };
    if killed {
        out.push(Event::say(format!("{hid} is eliminated.")));
        if world.get_entity(rider).is_ok() && world.get::<RidingOn>(rider).is_some() {
            world.entity_mut(rider).remove::<RidingOn>();
            out.push(Event::say(format!(
                "{} bails out of the saddle (A14, A13).",
                id_of(world, rider)
            )));
        }
        world.entity_mut(m).despawn();
    } else {
        out.push(Event::say(format!("{hid} loses a horse.")));
        over_capacity(world, rider, m, out);
    }
}

/// Seed 001, 13.511 with A5: "If a squad Horse-counter is Reduced … if the squad Riding that
/// Horse counter is unaffected by that attack, it immediately Deploys in order to have one of
/// its HS (randomly determined) Bail Out." A horse counter that lost a horse carries no more
/// than its capacity (A5): a whole squad on what is now a half-squad horse counter Deploys,
/// one half-squad riding on and the other bailing out on foot in the same hex (its id the
/// squad's with `.hs`); a squad the same attack already reduced is a half-squad and rides on;
/// any other rider the horses can no longer carry bails out, leaving the horses riderless.
fn over_capacity(world: &mut World, rider: Entity, m: Entity, out: &mut Vec<Event>) {
    if world.get_entity(rider).is_err()
        || world.get::<RidingOn>(rider).map(|r| r.0) != Some(m)
        || world.get_entity(m).is_err()
    {
        return;
    }
    let horses = world.get::<Body>(m).map_or(0, |b| b.left.min(3) as u8);
    let size = size_of(world, rider);
    if capacity(horses, &[size]).is_ok() {
        return;
    }
    let id = id_of(world, rider);
    let body = world.get::<Body>(rider).copied();
    if size == UnitSize::Mmc(2) && capacity(horses, &[UnitSize::Mmc(1)]).is_ok() {
        let whole = body.is_some_and(|b| b.left >= 2);
        if let Some(mut b) = world.get_mut::<Body>(rider) {
            b.max = 1;
            b.left = b.left.min(1);
        }
        if !whole {
            out.push(Event::say(format!(
                "{id}, already reduced to a half-squad, fits the half-squad horse counter (A5, 13.511)."
            )));
            return;
        }
        let hs = format!("{id}.hs");
        let n = world.entity_mut(rider).clone_and_spawn();
        world.entity_mut(n).remove::<RidingOn>();
        world.entity_mut(n).insert(FigureId(hs.clone()));
        if let Some(mut b) = world.get_mut::<Body>(n) {
            *b = Body { max: 1, left: 1 };
        }
        out.push(Event::say(format!(
            "The reduced horses carry only a half-squad (A5): {id} Deploys into two half-squads, \
             and {hs} bails out on foot (13.511)."
        )));
    } else {
        world.entity_mut(rider).remove::<RidingOn>();
        world.entity_mut(m).remove::<CarriedBy>();
        out.push(Event::say(format!(
            "The reduced horses can no longer carry {id} (A5): it bails out (13.511)."
        )));
    }
    sync_occupancy(world);
}

/// A17: the units gallop at once, and the wave's Charge is declared.
pub(crate) fn wave(
    world: &mut World,
    units: &[String],
    charger: &str,
    target: &str,
    asl: bool,
) -> Result<(), Refusal> {
    if !asl {
        return refuse("A17: the Cavalry Wave is an ASL rule");
    }
    if !units.iter().any(|u| u == charger) {
        return refuse("A17: the charging unit must be one of the wave");
    }
    let grid = world.resource::<Rules>().0.grid;
    let board = world.resource::<Map>().0.clone();
    let mut facts = Vec::new();
    let mut es = Vec::new();
    for u in units {
        let e = own(world, u)?;
        let side = world.get::<SideId>(e).map_or(0, |s| s.0);
        let at = cell_of(world, e);
        let horse = world.get::<RidingOn>(e).map(|r| r.0);
        let mut q = world.query::<(Entity, &SideId, &Position)>();
        let enemies: Vec<Cell> = q
            .iter(world)
            .filter(|(x, s, _)| s.0 != side && !is_riderless_horse(world, *x))
            .map(|(_, _, p)| p.0)
            .collect();
        let nearest = enemies
            .iter()
            .map(|&c| grid.distance(at, c))
            .min()
            .unwrap_or(i32::MAX);
        let h = horse
            .and_then(|h| world.get::<AslHorse>(h).copied())
            .unwrap_or_default();
        // A17: "within 16 MF": the enemy's hex can be entered for 16 MF at the cavalry's
        // terrain costs.
        let near_seen = enemies.iter().any(|&c| {
            cavalry_mf_to(&board, at, c, WAVE_MF).is_some() && sight(&board, at, c).is_ok()
        });
        facts.push(WaveUnit {
            hex: at,
            size: size_of(world, e),
            mounted: horse.is_some(),
            nearest_enemy: nearest,
            near_seen_enemy: near_seen,
            can_gallop: h.galloping || (!h.cx && !board.terrain_at(at).no_gallop),
        });
        es.push(e);
    }
    cavalry_wave_ok(grid, &facts).map_err(Refusal)?;
    // The wave's Charge must be possible once everyone gallops: the target is checked (an
    // enemy, not a horse, in sight and range), and every horse's Gallop, before any horse of
    // the chain changes gait.
    let (ce, _, t, hex) = check_declare(world, charger, &[target.to_string()], true)?;
    let mut gallops = Vec::new();
    for u in units {
        let e = own(world, u)?;
        let galloping = world
            .get::<RidingOn>(e)
            .and_then(|r| world.get::<AslHorse>(r.0))
            .is_some_and(|h| h.galloping);
        if gallops.iter().any(|(x, _)| *x == u) {
            return refuse(format!("A17: {u} is named twice in the wave"));
        }
        if !galloping {
            gallops.push((u, check_gallop(world, u)?.1));
        }
    }
    let phase = *world.resource::<State<Phase>>().get();
    for (u, plan) in gallops {
        super::super::orders::apply_gait(world, u, plan, phase);
    }
    log_now(
        world,
        format!(
            "A Cavalry Wave (A17): {} gallop together.",
            units.join(", ")
        ),
    );
    debug_assert!(
        check_declare(world, charger, &[target.to_string()], false).is_ok(),
        "A17: the wave's Charge, checked before the gallop, is refused after it"
    );
    set_charge(world, charger, ce, t, hex);
    Ok(())
}

#[cfg(test)]
#[path = "asl_charge_tests.rs"]
mod tests;
