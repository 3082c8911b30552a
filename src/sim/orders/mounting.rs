//! Getting on and off horses in every ruleset: D15, R2 and the ASL interplay (A4).

use super::*;
use crate::rules::ruleset::{MountRule, Ruleset};

pub(crate) fn mount(
    world: &mut World,
    e: Entity,
    id: &str,
    horse_id: &str,
    phase: Phase,
) -> Result<(), Refusal> {
    if world.get::<RidingOn>(e).is_some() {
        return refuse("A1: it is already mounted");
    }
    let Some(h) = find_figure(world, horse_id) else {
        return refuse(format!("there is no figure {horse_id:?}"));
    };
    if world.get::<GaitState>(h).is_none()
        || world
            .get::<Troop>(h)
            .is_none_or(|t| t.0 != TroopType::Horse)
    {
        return refuse(format!("{horse_id} is not a steed"));
    }
    if world.get::<CarriedBy>(h).is_some() {
        return refuse(format!("{horse_id} already carries a rider"));
    }
    let rules = world.resource::<Rules>().0.clone();
    let grid = rules.grid;
    let at = world.get::<Position>(e).expect("position").0;
    let hat = world.get::<Position>(h).expect("position").0;
    let asl_rules = rules.asl;
    let needed = if asl_rules.is_some() { 0 } else { 1 };
    if grid.distance(at, hat) != needed {
        return refuse(if needed == 0 {
            format!("A4: the horse must be in the same hex to be mounted ({hat} vs {at})")
        } else {
            format!(
                "{}: the steed at {hat} must be next to the figure at {at}",
                mount_rule(&rules)
            )
        });
    }
    let ra = *world.get::<Allowance>(e).expect("allowance");
    let ha = *world.get::<Allowance>(h).expect("allowance");
    let (rider_left, horse_left, text) = if let Some(nums) = asl_rules {
        let (inf2, hm2, c) = asl_exchange(world, e, h, nums.mount_mf)?;
        (
            inf2.left(),
            hm2.left(),
            format!(
                "{id} mounts {horse_id}: 1 MF, {} MF lost by the infantry, the horse loses {} MF and has {} left (A4).",
                c.infantry_lost,
                c.horse_lost,
                hm2.left()
            ),
        )
    } else {
        let cost = mount_cost_of(world, e, h)?;
        if cost > ra.left {
            return refuse(format!(
                "{}: mounting costs {cost}; only {} left",
                mount_rule(&rules),
                ra.left
            ));
        }
        let rl = ra.left - cost;
        let hl = ha.left.min(carry_share(rl, ra.basis, ha.basis));
        (
            rl,
            hl,
            format!(
                "{id} mounts {horse_id} for {cost} of its move ({}); the mount has {hl} left.",
                mount_rule(&rules)
            ),
        )
    };
    world.get_mut::<Allowance>(e).expect("allowance").left = rider_left;
    let mut a = world.get_mut::<Allowance>(h).expect("allowance");
    a.left = horse_left;
    a.used_any = a.used_any || ra.used_any;
    world.entity_mut(e).insert(RidingOn(h));
    world.entity_mut(h).insert(CarriedBy(e));
    let hf = world.get::<Facing>(h).expect("facing").0;
    world.get_mut::<Position>(e).expect("position").0 = hat;
    world.get_mut::<Facing>(e).expect("facing").0 = hf;
    sync_occupancy(world);
    log_in(world, phase, text);
    Ok(())
}

/// A4: prices a (dis)mount of `e` on or off `h` and pays it on both; returns the infantry's
/// and the horse's MF after it, and the price.
fn asl_exchange(
    world: &mut World,
    e: Entity,
    h: Entity,
    mount_mf: Mp,
) -> Result<(asl::InfantryMf, asl::HorseMf, asl::AslMountCost), Refusal> {
    let mut inf = world.get::<AslInfantry>(e).expect("asl").0;
    let mut hm = world.get::<AslHorse>(h).expect("asl horse").mf;
    let c = asl::mount_or_dismount(&inf, &hm, mount_mf).map_err(|r| Refusal(r.to_string()))?;
    asl::pay(&mut inf, &mut hm, &c);
    world.get_mut::<AslInfantry>(e).expect("asl").0 = inf;
    world.get_mut::<AslHorse>(h).expect("asl horse").mf = hm;
    Ok((inf, hm, c))
}

/// A4, read only: may infantry `e` mount horse `h` of an `asl` game now — in its hex, with
/// the MF the exchange needs? The A5 split of a horse counter asks this before it splits, so
/// that a refused Mount changes nothing.
pub(crate) fn check_asl_mount(world: &World, e: Entity, h: Entity) -> Result<(), Refusal> {
    let Some(mount_mf) = world.resource::<Rules>().0.asl.as_ref().map(|n| n.mount_mf) else {
        return Ok(());
    };
    let at = world.get::<Position>(e).map(|p| p.0);
    let hat = world.get::<Position>(h).map(|p| p.0);
    if let (Some(at), Some(hat)) = (at, hat)
        && at != hat
    {
        return refuse(format!(
            "A4: the horse must be in the same hex to be mounted ({hat} vs {at})"
        ));
    }
    let (Some(inf), Some(hm)) = (world.get::<AslInfantry>(e), world.get::<AslHorse>(h)) else {
        return Ok(());
    };
    asl::mount_or_dismount(&inf.0, &hm.mf, mount_mf)
        .map(|_| ())
        .map_err(|r| Refusal(r.to_string()))
}

/// The rule that prices getting on and off a steed in this ruleset: D15 (`destrier`, by
/// encumbrance), R2 (`realms`, by steed size) or A4 (`asl`).
fn mount_rule(rules: &Ruleset) -> &'static str {
    match rules.mounting {
        MountRule::ByEncumbrance { .. } => "D15",
        MountRule::BySteedSize { .. } => "R2",
        MountRule::Asl => "A4",
    }
}

/// D15 / R2 price of getting on or off `h` for rider `e`.
fn mount_cost_of(world: &World, e: Entity, h: Entity) -> Result<Mp, Refusal> {
    let rules = &world.resource::<Rules>().0;
    let ra = world.get::<Allowance>(e).expect("allowance");
    let species = species_rate(world, e);
    let enc = world
        .get::<Encumbered>(e)
        .map_or(Encumbrance::None, |x| x.0);
    let size = world
        .get::<SteedSizeOf>(h)
        .map_or(SteedSize::Large, |s| s.0);
    mount_cost(rules, ra.basis, species, enc, size).ok_or_else(|| {
        Refusal("D15/R2/A4: this ruleset sets no price for mounting, so nobody may mount".into())
    })
}

/// R2: the species rate of a half-move, before conditions.
pub(super) fn species_rate(world: &World, e: Entity) -> Mp {
    let rules = &world.resource::<Rules>().0;
    let rate = world.get::<Rate>(e).map_or(Mp::ZERO, |r| r.0);
    match rules.rate_per {
        crate::rules::ruleset::RatePer::Turn => rate.scale(Frac::new(1, 2)),
        crate::rules::ruleset::RatePer::HalfMove => rate,
    }
}

pub(crate) fn dismount(
    world: &mut World,
    e: Entity,
    id: &str,
    to: Option<(i32, i32)>,
    phase: Phase,
) -> Result<(), Refusal> {
    let Some(h) = world.get::<RidingOn>(e).map(|r| r.0) else {
        return refuse(format!(
            "D15: {id} is not mounted: there is nothing to dismount from"
        ));
    };
    let rules = world.resource::<Rules>().0.clone();
    let grid = rules.grid;
    let at = world.get::<Position>(e).expect("position").0;
    let ra = *world.get::<Allowance>(e).expect("allowance");
    let ha = *world.get::<Allowance>(h).expect("allowance");
    let dest = if rules.asl.is_some() {
        at
    } else {
        let board = &world.resource::<Map>().0;
        let free = |c: Cell| {
            board.contains(c) && board.occupant_at(c) == 0 && board.terrain_at(c).cost.is_some()
        };
        match to {
            Some((x, y)) => {
                let c = Cell::new(x, y);
                if grid.distance(at, c) != 1 || !free(c) {
                    return refuse(format!(
                        "D10a: {c} must be a free, passable cell next to the mount"
                    ));
                }
                c
            }
            None => match grid.neighbours(at).map(|(_, c)| c).find(|&c| free(c)) {
                Some(c) => c,
                None => return refuse("D10a: no free cell next to the mount to step down to"),
            },
        }
    };
    let (rider_left, horse_left, text) = if let Some(nums) = rules.asl {
        let (inf2, hm2, c) = asl_exchange(world, e, h, nums.mount_mf)?;
        (
            inf2.left(),
            hm2.left(),
            format!(
                "{id} dismounts: 1 MF, {} MF lost by the infantry ({} left); the horse loses {} MF (A4).",
                c.infantry_lost,
                inf2.left(),
                c.horse_lost
            ),
        )
    } else {
        let cost = mount_cost_of(world, e, h)?;
        let share = carry_share(ha.left, ha.basis, ra.basis).min(ra.left);
        if cost > share {
            return refuse(format!(
                "{}: dismounting costs {cost}; only {share} of its own move is left",
                mount_rule(&rules)
            ));
        }
        let rl = share - cost;
        (
            rl,
            Mp::ZERO,
            format!(
                "{id} dismounts to {dest} for {cost} ({}); {rl} left on foot.",
                mount_rule(&rules)
            ),
        )
    };
    let mut a = world.get_mut::<Allowance>(e).expect("allowance");
    a.left = rider_left;
    a.used_any = true;
    world.get_mut::<Allowance>(h).expect("allowance").left = horse_left;
    world.entity_mut(e).remove::<RidingOn>();
    world.entity_mut(h).remove::<CarriedBy>();
    world.get_mut::<Position>(e).expect("position").0 = dest;
    if let Some(d) = grid.dir_to_adjacent(at, dest) {
        world.get_mut::<Facing>(e).expect("facing").0 = d;
    }
    sync_occupancy(world);
    log_in(world, phase, text);
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Seed 002 (R2) prices mounting in `realms` ("mount/dismount a medium or large steed 50%
    /// of species movement"); seed 003 (D15) in `destrier`; A4 in `asl`: each refusal names
    /// its own ruleset's rule, not "D15" everywhere.
    #[test]
    fn r2_d15_a4_mounting_refusals_name_the_rulesets_rule() {
        for (name, tag) in [("realms", "R2"), ("destrier", "D15"), ("asl", "A4")] {
            let r = crate::level::builtin_ruleset(name).expect("ruleset");
            assert_eq!(super::mount_rule(&r), tag, "{name}");
        }
    }
}
