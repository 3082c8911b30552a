//! What each card does, in one line a player reads on the card's face, with the rule's tag
//! (§6 of seed 003, D6–D8, C8). The card table shows these; the full reasoning stays in
//! `docs/rules.md`. A card's numbers (chance, damage) are not here: they come from the
//! resolver, so the face shows exactly what rolls.

use super::super::deck::{DodgeDir, HorseCard, MeleeCard, MoveStep, TacCard};

impl TacCard {
    /// One line on the card's face: what the card does (§6, D6, D8).
    pub fn effect(self) -> &'static str {
        match self {
            TacCard::Retreat => "Back half a move from every enemy, in good order (§6).",
            TacCard::RunAway => "A full move away, ending with its back to the enemy (§6).",
            TacCard::Close => "Up to 1\" straight at a named or the nearest enemy (§6).",
            TacCard::KeepDistance => "Stays put; retreats or stands if an enemy comes (§6).",
            TacCard::StandGround => "No movement; it meets whoever comes (§6).",
            TacCard::Fleche => "Up to 2\" straight into contact with a named enemy (§6).",
            TacCard::Charge => "A charge at a named enemy, once a turn (§6, D8).",
        }
    }
}

impl MeleeCard {
    /// One line on the card's face: what the card does (§6, D7, C8).
    pub fn effect(&self) -> &'static str {
        match self {
            MeleeCard::Fire { .. } => "Looses its loaded missile weapon (§6).",
            MeleeCard::Reload => "Reloads its missile weapon (§6).",
            MeleeCard::DrawWeapon { .. } => "Takes a weapon or the shield to hand (§6).",
            MeleeCard::PrepareSpell => "Readies a spell; needed before CAST SPELL (§6).",
            MeleeCard::CastSpell { .. } => "Casts a known spell (§6).",
            MeleeCard::PullRider { .. } => "Grapples a rider out of the saddle (§6).",
            MeleeCard::Restraint { .. } => "Holds a figure after an opening, 50% (§6).",
            MeleeCard::Toss { .. } => "Throws a figure down on a body bash (§6).",
            MeleeCard::BreakFree => "Tries to break a restraint, 25% (§6).",
            MeleeCard::Punch { .. } => "A bare-handed punch (§6).",
            MeleeCard::Kick { .. } => "A kick; a hooved animal kicks hard (§6).",
            MeleeCard::DeliverBlow { .. } => "The ordinary blow with its weapon (§6).",
            MeleeCard::Ferocity { .. } => "A savage blow: 25% to go berserk (§6).",
            MeleeCard::GreatBlow { .. } => {
                "+10% to hit and critical, extra dice; struck first (§6)."
            }
            MeleeCard::Move(MoveStep::To(_)) => "Steps 1\" that way (§6).",
            MeleeCard::Move(MoveStep::Face(_)) => "Turns to face that way (§6, D16).",
            MeleeCard::Move(MoveStep::StandUp) => "Gets up: kneeling at once, prone on 1-4 (§6).",
            MeleeCard::WeaponParry => {
                "Its parry bonus against blows at its front; may counter (§6)."
            }
            MeleeCard::DesperateDefense => "-25% to every blow at its front; no counter (§6).",
            MeleeCard::ActiveShieldParry => {
                "Shield against blows at any front side; may bash (§6)."
            }
            MeleeCard::PassiveShieldParry => {
                "Shield side only, -10%: the card of doing nothing (D7)."
            }
            MeleeCard::Dodge(DodgeDir::Left) => {
                "½\" to its shield side, if the foe guesses wrong (§6)."
            }
            MeleeCard::Dodge(DodgeDir::Right) => {
                "½\" to its sword side, if the foe guesses wrong (§6)."
            }
            MeleeCard::Dodge(DodgeDir::Back) => "½\" back, if the foe guesses wrong (§6).",
            MeleeCard::Horse(HorseCard::Move) => "The horse runs straight ahead (§6, C8).",
            MeleeCard::Horse(HorseCard::Wheel { .. }) => {
                "Whirls in place; may knock down men in contact, 50% (§6)."
            }
            MeleeCard::Horse(HorseCard::Turn { .. }) => "Turns as it runs, within C8's rate (C8).",
            MeleeCard::Horse(HorseCard::Trample { .. }) => "Rides over a prone figure (§6).",
            MeleeCard::Horse(HorseCard::Hamstring { .. }) => {
                "Cuts a horse's legs, once a turn (§6)."
            }
        }
    }
}
