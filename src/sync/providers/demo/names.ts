/**
 * Fictional names for the demo: towns, clubs and people are assembled from syllables with a
 * regional flavour, so they read plausibly for each league but belong to nobody real.
 */
import type { Rng } from './random.js';
import { rngFor } from './random.js';

export type Region = 'en' | 'us' | 'es' | 'pt' | 'it' | 'fr' | 'de' | 'nl' | 'tr' | 'ja' | 'ar';

interface RegionWords {
  townPre: string[];
  townSuf: string[];
  /** `{t}` is replaced by the town. */
  clubs: string[];
  first: string[];
  surPre: string[];
  surSuf: string[];
  surnamePrefix?: string;
}

const w = (s: string) => s.split('|');

const WORDS: Record<Region, RegionWords> = {
  en: {
    townPre: w(
      'North|South|East|West|Ash|Elm|Oak|Stone|Kings|Marl|Brack|Hollow|Thorn|Wex|Dun|Fern|Hart|Lang|Mill|Alder',
    ),
    townSuf: w('bridge|ford|ham|field|ton|wick|bury|moor|dale|gate|worth|stead|haven|mouth|ley|cliffe'),
    clubs: w(
      '{t} Rovers|{t} United|{t} Athletic|{t} Wanderers|{t} City|{t} Albion|{t} Town|{t} County|{t} FC|{t} Rangers|{t} Thistle',
    ),
    first: w('Callum|Jamie|Liam|Owen|Ryan|Harry|Connor|Declan|Ethan|Lewis|Rory|Tom|Jack|Finn|Ross'),
    surPre: w('Ash|Black|Brad|Carr|Dal|Fair|Hal|Kel|Lang|Mar|Pen|Rad|Stan|Thorn|Wal|Whit'),
    surSuf: w('ford|ley|worth|ton|wood|well|by|more|ridge|son|croft'),
  },
  us: {
    townPre: w('Cedar|Silver|Pine|Copper|Iron|Maple|Clear|Granite|Prairie|Willow|Falcon|Bright|Timber|Juniper'),
    townSuf: w(' Valley| Springs| Harbor| Ridge| Falls| Point|ville|port| Bay|field| Creek| Hills'),
    clubs: w('{t} FC|{t} SC|{t} United|Real {t}|{t} Athletic|{t} Union|{t} Republic|{t} Rapids'),
    first: w('Tyler|Brandon|Cody|Dylan|Jordan|Kyle|Logan|Mason|Trevor|Wyatt|Carter|Austin|Jalen'),
    surPre: w('Ash|Black|Brad|Carr|Dal|Fair|Hal|Kel|Lang|Mar|Pen|Rad|Stan|Thorn|Wal|Whit'),
    surSuf: w('ford|ley|worth|ton|wood|well|by|more|ridge|son|croft'),
  },
  es: {
    townPre: w('Val|Villa|Monte|Puerto |Santa |Torre|Alto |Campo|Río |Sierra |Nueva |Costa |Llano|Peña'),
    townSuf: w('verde|rica|alta|dorada|blanca|luz|mar|sol|clara|serena|brava|fría|honda|larga'),
    clubs: w(
      'Real {t}|Deportivo {t}|Atlético {t}|CD {t}|Club {t}|Racing {t}|Unión {t}|{t} CF|Sporting {t}|Independiente {t}|Estudiantes de {t}',
    ),
    first: w(
      'Mateo|Santiago|Joaquín|Tomás|Lautaro|Facundo|Diego|Iker|Álvaro|Hugo|Pablo|Bruno|Emiliano|Nicolás|Rodrigo',
    ),
    surPre: w('Alde|Barra|Cala|Echa|Fer|Garri|Iba|Lore|Mon|Oli|Pare|Quin|Sala|Tor|Val|Zubi'),
    surSuf: w('guren|ndo|rreta|nova|lles|zábal|rrán|ñez|dino|ría|bal|rano'),
  },
  pt: {
    townPre: w('Vila |Porto |São |Serra |Campo |Bela|Rio |Nova |Alto |Pedra|Mar|Boa'),
    townSuf: w('verde|alegre|grande|bonita|dourada|clara|nova|branca|vista|serena|azul|mansa'),
    clubs: w(
      'Sporting {t}|{t} FC|Esporte Clube {t}|Atlético {t}|União {t}|Clube {t}|Grêmio {t}|Desportivo {t}|Académica {t}',
    ),
    first: w('João|Gabriel|Thiago|Lucas|Rafael|Matheus|Diogo|Rúben|Vitor|Caio|Renan|Tiago|Gonçalo'),
    surPre: w('Alva|Barbo|Carva|Dou|Fa|Gui|Lou|Macha|Nogue|Peix|Quei|Ribe|Sal|Tava|Vascon'),
    surSuf: w('renga|sa|lho|rado|ria|marães|reira|do|ira|roz|iro|res|celos'),
  },
  it: {
    townPre: w('Monte|Castel|Borgo|Porto|Villa|San |Santa |Roc|Pesca|Valle|Lago|Fonte|Torre'),
    townSuf: w('franco|vento|rosso|chiaro|mare|nova|bello|doro|alto|verde|fiore|sole'),
    clubs: w('{t} Calcio|AC {t}|US {t}|Virtus {t}|Sporting {t}|AS {t}|Polisportiva {t}|Atletico {t}|FC {t}'),
    first: w('Lorenzo|Matteo|Riccardo|Federico|Tommaso|Davide|Gianluca|Simone|Nicolò|Pietro|Andrea|Marco|Luca'),
    surPre: w('Bel|Cala|Del|Fer|Gallo|Lom|Mar|Nar|Pel|Ros|Sal|Ter|Vac|Zan'),
    surSuf: w('lini|brese|rasco|ranti|netti|bardi|chetti|done|ligrini|sini|vatore|zetti|cari|otti'),
  },
  fr: {
    townPre: w('Saint-|Mont|Beau|Val|Belle|Port-|Roche|Ville|Clair|Fontaine|Château|Bois'),
    townSuf: w('mont|lieu|ville|fort|champ|vallon|rivière|marais|bourg|pré|lac|sable'),
    clubs: w('FC {t}|Olympique {t}|Stade {t}|AS {t}|Racing {t}|US {t}|AJ {t}|SC {t}|Union {t}'),
    first: w('Théo|Hugo|Lucas|Maxime|Romain|Bastien|Julien|Kylian|Enzo|Mathis|Clément|Antoine|Yanis'),
    surPre: w('Beau|Cham|Dela|Du|Fon|Gar|Lam|Mar|Mon|Per|Roche|Sau|Ver'),
    surSuf: w('champ|bert|croix|pont|taine|nier|chand|tagne|rin|fort|vage|rier'),
  },
  de: {
    townPre: w('Alten|Neu|Ober|Unter|Stein|Wald|Rosen|Eich|Falken|Lichten|Hohen|Grün|Sonnen|Kalten'),
    townSuf: w('burg|dorf|berg|feld|hausen|stadt|bach|heim|au|tal|brück|wald'),
    clubs: w(
      'FC {t}|SV {t}|VfB {t}|SC {t}|Borussia {t}|Eintracht {t}|TSV {t}|1. FC {t}|Fortuna {t}|Union {t}|SpVgg {t}|VfL {t}',
    ),
    first: w('Lukas|Jonas|Felix|Leon|Maximilian|Niklas|Tim|Jan|Florian|Moritz|Julian|Paul|Erik'),
    surPre: w('Alt|Bren|Dreß|Eber|Fisch|Gro|Hart|Kess|Lind|Meier|Rein|Schä|Wolt'),
    surSuf: w('mann|ler|ner|hardt|berger|feld|ke|hofer|meyer|stein|ling|rich'),
  },
  nl: {
    townPre: w('Noord|Zuid|Oost|Wester|Hoog|Groen|Zee|Dijk|Berg|Kloos|Ven|Mol|Eek'),
    townSuf: w('dam|veen|hoven|dijk|wijk|horst|broek|kerke|meer|burg|zande|lo'),
    clubs: w('{t} FC|SC {t}|FC {t}|Sparta {t}|VV {t}|Heracles {t}|{t} Boys|KV {t}|Royal {t}|KRC {t}|Cercle {t}'),
    first: w('Daan|Sem|Bram|Lars|Thijs|Jesse|Ruben|Stijn|Joost|Milan|Niels|Wout|Kobe'),
    surPre: w('Bak|Dek|Hoog|Jan|Kui|Mol|Rij|Sme|Ver|Vis|Wij|Zee'),
    surSuf: w('ker|stra|hout|sen|pers|enaar|kens|laar|beek|man|dijk|sma'),
  },
  tr: {
    townPre: w('Kara|Ak|Yeni|Göl|Kızıl|Eski|Deniz|Dağ|Su|Taş|Yıldız|Ay'),
    townSuf: w('kent|dere|köy|tepe|ova|pınar|yurt|kale|bahçe|hisar|çay|lı'),
    clubs: w('{t}spor|{t} FK|{t} Belediyespor|{t} SK|{t} Gençlerbirliği|{t} İdmanyurdu'),
    first: w('Emre|Burak|Mert|Can|Arda|Kerem|Oğuz|Yusuf|Cenk|Hakan|Serkan|Barış|Onur'),
    surPre: w('Ak|Bal|Çel|Demir|Er|Kara|Koç|Öz|Şa|Tek|Uy|Yıl|Acar'),
    surSuf: w('soy|taş|ik|kaya|doğan|han|türk|gün|can|bay|man|dız'),
  },
  ja: {
    townPre: w('Kita|Minami|Higashi|Nishi|Aka|Shira|Kawa|Yama|Hana|Mori|Taka|Sora'),
    townSuf: w('hama|zawa|mura|saki|oka|shima|gawa|no|yama|tsu|hara|kubo'),
    clubs: w('{t} FC|{t} Blaze|{t} Stallions|Vortex {t}|{t} Sparks|{t} Thunder|{t} Rising|{t} Kestrels'),
    first: w('Haruto|Ren|Sota|Yuto|Kaito|Riku|Hayato|Daiki|Takumi|Shun|Kenta|Yuma|Sho'),
    surPre: w('Aki|Fuji|Haya|Ishi|Kino|Matsu|Naka|Oga|Saka|Tana|Uchi|Yoshi'),
    surSuf: w('moto|mura|kawa|shita|da|no|ta|yama|zaki|hara|oka|gawa'),
  },
  ar: {
    townPre: w('Wadi |Ras |Jabal |Bir |Qasr |Ain |Dar |Tall |Umm |Khor '),
    townSuf: w('Nakhla|Sahil|Rimal|Zahra|Qamar|Fajr|Najm|Sahra|Nour|Wafa|Amal|Yasmin'),
    clubs: w('{t} SC|{t} Club|{t} FC|Ittihad {t}|Nadi {t}'),
    first: w('Faisal|Khalid|Saud|Nasser|Majed|Turki|Hamad|Yasser|Fahad|Salem|Abdullah|Omar|Rakan'),
    surPre: w('Nuf|Ghan|Har|Jaz|Mut|Qah|Rash|Kab|Tam|Wah|Bak|Mal'),
    surSuf: w('ari|idi|bi|rani|eiri|tani|iri|wan|ani|ali|umi|eri'),
    surnamePrefix: 'Al-',
  },
};

export const LEAGUE_REGION: Record<string, Region> = {
  'arg.1': 'es',
  'bel.1': 'nl',
  'bra.1': 'pt',
  'ned.1': 'nl',
  'eng.1': 'en',
  'fra.1': 'fr',
  'ger.1': 'de',
  'ita.1': 'it',
  'jpn.1': 'ja',
  'usa.1': 'us',
  'mex.1': 'es',
  'por.1': 'pt',
  'ksa.1': 'ar',
  'sco.1': 'en',
  'esp.1': 'es',
  'tur.1': 'tr',
};

export interface Country {
  name: string;
  abbreviation: string;
  region: Region;
}

const C = (name: string, abbreviation: string, region: Region): Country => ({ name, abbreviation, region });
export const COUNTRIES: readonly Country[] = [
  C('England', 'ENG', 'en'),
  C('Scotland', 'SCO', 'en'),
  C('Wales', 'WAL', 'en'),
  C('Ireland', 'IRL', 'en'),
  C('Nigeria', 'NGA', 'en'),
  C('Ghana', 'GHA', 'en'),
  C('Jamaica', 'JAM', 'en'),
  C('United States', 'USA', 'us'),
  C('Canada', 'CAN', 'us'),
  C('Spain', 'ESP', 'es'),
  C('Argentina', 'ARG', 'es'),
  C('Mexico', 'MEX', 'es'),
  C('Colombia', 'COL', 'es'),
  C('Uruguay', 'URU', 'es'),
  C('Chile', 'CHI', 'es'),
  C('Brazil', 'BRA', 'pt'),
  C('Portugal', 'POR', 'pt'),
  C('Italy', 'ITA', 'it'),
  C('France', 'FRA', 'fr'),
  C('Senegal', 'SEN', 'fr'),
  C('Ivory Coast', 'CIV', 'fr'),
  C('Germany', 'GER', 'de'),
  C('Austria', 'AUT', 'de'),
  C('Switzerland', 'SUI', 'de'),
  C('Netherlands', 'NED', 'nl'),
  C('Belgium', 'BEL', 'nl'),
  C('Turkey', 'TUR', 'tr'),
  C('Japan', 'JPN', 'ja'),
  C('Saudi Arabia', 'KSA', 'ar'),
  C('Morocco', 'MAR', 'ar'),
  C('Egypt', 'EGY', 'ar'),
];

export function countryNamed(name: string, region: Region): Country {
  return COUNTRIES.find((c) => c.name === name) ?? { name, abbreviation: name.slice(0, 3).toUpperCase(), region };
}

/** Glue two syllables, dropping a doubled letter at the seam ("Fer" + "rreta" → "Ferreta"). */
function glue(pre: string, suf: string): string {
  return pre.slice(-1).toLowerCase() === suf.charAt(0).toLowerCase() ? pre + suf.slice(1) : pre + suf;
}

function joinTown(pre: string, suf: string): string {
  if (pre.endsWith(' ') || pre.endsWith('-')) return pre + suf.charAt(0).toUpperCase() + suf.slice(1);
  if (suf.startsWith(' ')) return pre + suf;
  return glue(pre, suf);
}

/**
 * The towns a league may use. Leagues that share a region take disjoint slices of one shuffled
 * list, so no two clubs anywhere in the demo share a town, and no league needs another generated.
 */
export function townsFor(
  seed: number,
  region: Region,
  sliceIndex: number,
  sliceCount: number,
  count: number,
): string[] {
  const words = WORDS[region];
  const all: string[] = [];
  for (const pre of words.townPre) {
    for (const suf of words.townSuf) {
      const town = joinTown(pre, suf);
      if (pre.trim().toLowerCase() !== suf.trim().toLowerCase()) all.push(town);
    }
  }
  const unique = [...new Set(all)];
  rngFor(seed, 'towns', region).shuffle(unique);
  const per = Math.floor(unique.length / sliceCount);
  const slice = unique.slice(sliceIndex * per, sliceIndex * per + per);
  if (slice.length < count) throw new Error(`demo: not enough ${region} town names (${slice.length} < ${count})`);
  return slice.slice(0, count);
}

export function clubName(rng: Rng, region: Region, town: string): string {
  return rng.pick(WORDS[region].clubs).replace('{t}', town);
}

export interface PersonName {
  firstName: string;
  lastName: string;
}

export function personName(rng: Rng, region: Region): PersonName {
  const words = WORDS[region];
  const lastName = (words.surnamePrefix ?? '') + glue(rng.pick(words.surPre), rng.pick(words.surSuf));
  return { firstName: rng.pick(words.first), lastName };
}

/** Regions of the leagues that share a region, in league order, for `townsFor` slices. */
export function regionSlice(slug: string, slugs: readonly string[]): { index: number; count: number } {
  const region = LEAGUE_REGION[slug];
  const peers = slugs.filter((s) => LEAGUE_REGION[s] === region);
  return { index: Math.max(0, peers.indexOf(slug)), count: Math.max(1, peers.length) };
}
