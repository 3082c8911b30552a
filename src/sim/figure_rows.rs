//! Every figure's public state as typed components, read from the game's world for the
//! window's mirrors ([`super::Game::figure_rows`]).

use super::components::*;
use bevy::prelude::*;

/// One figure's public state as typed components: what the window draws of it (and, across
/// machines, what a seat is sent of it). Nothing in it is secret (I4).
#[derive(Clone, Debug)]
pub struct FigureRow {
    /// Its id.
    pub id: FigureId,
    /// Its `name` component, if it has one.
    pub name: Option<FigureName>,
    /// Its `side` component, if it has one.
    pub side: Option<SideId>,
    /// Its `pos` component, if it has one.
    pub pos: Option<Position>,
    /// Its `facing` component, if it has one.
    pub facing: Option<Facing>,
    /// Its `diag` component, if it has one.
    pub diag: Option<Diagonal>,
    /// Its `gait` component, if it has one.
    pub gait: Option<GaitState>,
    /// Its `allowance` component, if it has one.
    pub allowance: Option<Allowance>,
    /// Its `blows` component, if it has one.
    pub blows: Option<Blows>,
    /// Its `body` component, if it has one.
    pub body: Option<Body>,
    /// Its `troop` component, if it has one.
    pub troop: Option<Troop>,
    /// Its `weapon` component, if it has one.
    pub weapon: Option<Weapon>,
    /// Its `armour` component, if it has one.
    pub armour: Option<Armour>,
    /// Its `shield` component, if it has one.
    pub shield: Option<Shield>,
    /// Its `conditions` component, if it has one.
    pub conditions: Option<Conditions>,
    /// Its `template` component, if it has one.
    pub template: Option<TemplateKey>,
    /// Its `quality` component, if it has one.
    pub quality: Option<Quality>,
    /// Its `rate` component, if it has one.
    pub rate: Option<Rate>,
    /// Its `trail` component, if it has one.
    pub trail: Option<Trail>,
    /// The id of the mount it rides.
    pub riding: Option<String>,
    /// The id of the rider it carries.
    pub carried: Option<String>,
}

/// Every figure of the game's world, in id order.
pub(crate) fn read_figures(game: &mut World) -> Vec<FigureRow> {
    let mut q = game.query::<(Entity, &FigureId)>();
    let mut ids: Vec<(Entity, FigureId)> = q.iter(game).map(|(e, id)| (e, id.clone())).collect();
    ids.sort_by(|a, b| a.1.cmp(&b.1));
    let id_of = |e: Entity| game.get::<FigureId>(e).map(|f| f.0.clone());
    ids.into_iter()
        .map(|(e, id)| {
            let r = game.entity(e);
            FigureRow {
                id,
                name: r.get().cloned(),
                side: r.get().copied(),
                pos: r.get().copied(),
                facing: r.get().copied(),
                diag: r.get().copied(),
                gait: r.get().cloned(),
                allowance: r.get().copied(),
                blows: r.get().copied(),
                body: r.get().copied(),
                troop: r.get().copied(),
                weapon: r.get().cloned(),
                armour: r.get().copied(),
                shield: r.get().copied(),
                // Every condition in words, combat state included (down, stunned…), as
                // the snapshot lists them: the card and the counter show them all.
                conditions: Some(Conditions(crate::sim::snapshot::condition_words(
                    r.get(),
                    r.get(),
                    r.get(),
                    r.get(),
                    r.get(),
                    r.get(),
                    crate::rules::melee::tables::tables(),
                ))),
                template: r.get().cloned(),
                quality: r.get().copied(),
                rate: r.get().copied(),
                trail: r.get().cloned(),
                riding: r.get::<RidingOn>().and_then(|m| id_of(m.0)),
                carried: r.get::<CarriedBy>().and_then(|m| id_of(m.0)),
            }
        })
        .collect()
}
