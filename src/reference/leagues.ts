/**
 * Reference data for the 16 leagues the service covers. A sync may refine `espnId`/season from
 * what ESPN's own payloads say; everything else here is the project's catalogue.
 */
export interface LeagueRef {
  slug: string;
  espnId: string;
  name: string;
  abbreviation: string;
  country: string;
  kind: 'club' | 'international';
  /** Does the season run within one calendar year (MLS, Brasileirão) or across two (Europe)? */
  calendarYearSeason: boolean;
}

const L = (
  slug: string,
  espnId: string,
  name: string,
  abbreviation: string,
  country: string,
  calendarYearSeason = false,
): LeagueRef => ({ slug, espnId, name, abbreviation, country, kind: 'club', calendarYearSeason });

export const LEAGUES: readonly LeagueRef[] = [
  L('arg.1', '745', 'Argentine Liga Profesional de Fútbol', 'Liga Profesional', 'Argentina', true),
  L('bel.1', '3901', 'Belgian Pro League', 'Pro League', 'Belgium'),
  L('bra.1', '630', 'Brazilian Serie A', 'Brasileirão', 'Brazil', true),
  L('ned.1', '725', 'Dutch Eredivisie', 'Eredivisie', 'Netherlands'),
  L('eng.1', '700', 'English Premier League', 'Premier League', 'England'),
  L('fra.1', '710', 'French Ligue 1', 'Ligue 1', 'France'),
  L('ger.1', '720', 'German Bundesliga', 'Bundesliga', 'Germany'),
  L('ita.1', '730', 'Italian Serie A', 'Serie A', 'Italy'),
  L('jpn.1', '2199', 'Japanese J.League', 'J1 League', 'Japan', true),
  L('usa.1', '770', 'MLS', 'MLS', 'United States', true),
  L('mex.1', '760', 'Mexican Liga BBVA MX', 'Liga MX', 'Mexico'),
  L('por.1', '715', 'Portuguese Primeira Liga', 'Primeira Liga', 'Portugal'),
  L('ksa.1', '21231', 'Saudi Pro League', 'Saudi Pro League', 'Saudi Arabia'),
  L('sco.1', '735', 'Scottish Premiership', 'Premiership', 'Scotland'),
  L('esp.1', '740', 'Spanish LALIGA', 'LALIGA', 'Spain'),
  L('tur.1', '3902', 'Turkish Super Lig', 'Super Lig', 'Turkey'),
];

export const LEAGUE_SLUGS: readonly string[] = LEAGUES.map((l) => l.slug);

/** ESPN's logo URL scheme for leagues; a stable public address, not a fetched asset. */
export function leagueLogo(ref: LeagueRef): string {
  return `https://a.espncdn.com/i/leaguelogos/soccer/500/${ref.espnId}.png`;
}
