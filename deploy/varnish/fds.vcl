#
# Varnish in front of an `fds live` (or `fds serve`) origin: a reference shared cache (docs/json-api.md).
#
# For Debian's varnish 7.1 with varnish-modules (the xkey vmod):
#     apt-get install varnish varnish-modules
#     varnishd -a :80 -f /etc/varnish/fds.vcl -s malloc,256m
# and on the origin host: fds live --trust-proxy --purge varnish:http://127.0.0.1:80/ …
#
# What it does:
#   - keeps every 200 for the lifetime the origin gives shared caches in CDN-Cache-Control
#     (s-maxage, else max-age; falling back to Cache-Control when that header is absent);
#   - indexes each answer by the cache tags in its `xkey` header, and drops them all at once on a
#     `PURGE` with an `xkey-purge: tag1 tag2 …` header from `purgers` (hard purge: the next request
#     waits for the new answer instead of getting the old one once more);
#   - stale-while-revalidate: answers from the stale copy while one background fetch refreshes it;
#   - stale-if-error: after that, keeps the copy only for when the origin fails (5xx, 429, no
#     connection): a fresh answer is fetched first and the stale copy served only if that fails;
#   - never stores an error or a 429, and never lets one stop storing the URL (no hit-for-miss);
#   - sorts query parameters so one answer is one object; ignores cookies;
#   - answers If-None-Match from the cache with 304 (Varnish does this for every object with an ETag);
#   - hides the cache-control and tag headers meant for it; adds `X-Cache: HIT|MISS`.
#
vcl 4.1;

import std;
import xkey;

# The origin. Change .host/.port to where `fds live --port` listens (its default is 8080).
# Run it with --trust-proxy so its rate limits and logs see the client (Varnish appends the
# client's address to X-Forwarded-For), or with --no-rate-limiting: otherwise every client
# shares the cache's address and its limits.
backend fds {
    .host = "127.0.0.1";
    .port = "8080";
    .connect_timeout = 1s;
    .first_byte_timeout = 15s;
    .between_bytes_timeout = 5s;
}

# Who may purge. `fds live --purge varnish:URL` runs on the origin host, usually this one.
acl purgers {
    "localhost";
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    # Markers this VCL sets on itself between restarts; a client does not get to set them.
    if (req.restarts == 0) {
        unset req.http.X-FDS-Refresh;
        unset req.http.X-FDS-Stale-If-Error;
        unset req.http.X-FDS-Purged;
    }

    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (!req.http.xkey-purge) {
            # No purge by URL: every answer is tagged, and a tag purge covers all its variants.
            return (synth(400, "PURGE needs an xkey-purge header"));
        }
        set req.http.X-FDS-Purged = xkey.purge(req.http.xkey-purge);
        return (synth(200, "Purged"));
    }

    # Lower-case Host; 400 for an HTTP/1.1 request without one (as the builtin VCL does).
    call vcl_req_host;

    if (req.method != "GET" && req.method != "HEAD") {
        # OPTIONS (204, CORS) and the 405 for other methods are the origin's answers.
        return (pass);
    }

    # Nothing the API answers depends on a cookie; a cookie must not make a request uncacheable.
    unset req.http.Cookie;
    # One object per answer whatever the order of the parameters. Not when a parameter is repeated:
    # the origin takes its last value, and std.querysort sorts `a=2&a=1` into `a=1&a=2`.
    if (req.url !~ "[?&]([^=&#]*)(=[^&#]*)?&(.*&)?\1(=|&|#|$)") {
        set req.url = std.querysort(req.url);
    }

    if (req.http.X-FDS-Stale-If-Error) {
        # That fetch failed: take the copy after all (req.grace outlives a restart; lift the limit).
        set req.grace = 3650d;
    } elsif (req.http.X-FDS-Refresh) {
        # vcl_hit found only a copy kept for stale-if-error: look past it, fetch in the foreground.
        set req.grace = 0s;
    }
    return (hash);
}

sub vcl_hit {
    if (obj.ttl >= 0s) {
        return (deliver);
    }
    # Stale, within stale-while-revalidate: deliver it; Varnish refreshes it in the background.
    if (obj.ttl + std.duration(obj.http.X-FDS-SWR, 0s) > 0s) {
        return (deliver);
    }
    # Kept only for stale-if-error, and the fetch past it failed (vcl_synth): deliver it.
    if (req.http.X-FDS-Stale-If-Error) {
        return (deliver);
    }
    # Kept only for stale-if-error: fetch a fresh answer first (vcl_recv then looks past this copy).
    set req.http.X-FDS-Refresh = "1";
    return (restart);
}

sub vcl_backend_response {
    # A pass (not GET/HEAD): nothing to store, and nothing to remember about the URL.
    if (bereq.uncacheable) {
        return (deliver);
    }

    # The origin failed while a stale copy exists (a background refresh, or a foreground one past a
    # stale-if-error copy): abandon the fetch; the copy stays, and vcl_synth serves it.
    if ((beresp.status >= 500 || beresp.status == 429) &&
        (bereq.is_bgfetch || bereq.http.X-FDS-Refresh)) {
        return (abandon);
    }

    # Errors and 429s are never stored: beresp.ttl = 0s and return (deliver) here, before the
    # builtin VCL, which makes a 120 s hit-for-miss of anything with ttl <= 0 or no-store: until an
    # answer it can store comes back, every request for the URL then goes to the origin at once,
    # uncoalesced, which against an origin that rate-limits the cache keeps the 429s coming.
    # (Clearing beresp.uncacheable instead does nothing; Varnish ignores it.) Here nothing of the
    # error stays: requests waiting for it ask the origin again a few at a time (rush_exponent),
    # and the first 200 is stored and answers the rest.
    if (beresp.status != 200) {
        call fds_not_stored;
    }
    if (beresp.http.Set-Cookie || beresp.http.Vary == "*") {
        call fds_not_stored;
    }

    # RFC 9213: CDN-Cache-Control, when present, is the whole cache policy for shared caches.
    if (beresp.http.CDN-Cache-Control) {
        set beresp.http.X-FDS-CC = beresp.http.CDN-Cache-Control;
    } else {
        set beresp.http.X-FDS-CC = beresp.http.Cache-Control;
    }
    if (beresp.http.X-FDS-CC ~ "(?i)(^|[,\s])(no-store|no-cache|private)([,\s=]|$)") {
        call fds_not_stored;
    }

    if (beresp.http.X-FDS-CC ~ "(?i)(^|[,\s])s-maxage\s*=\s*\d+") {
        set beresp.ttl = std.duration(
            regsub(beresp.http.X-FDS-CC, "(?i)^(.*[,\s])?s-maxage\s*=\s*(\d+).*$", "\2s"), 0s);
    } elsif (beresp.http.X-FDS-CC ~ "(?i)(^|[,\s])max-age\s*=\s*\d+") {
        set beresp.ttl = std.duration(
            regsub(beresp.http.X-FDS-CC, "(?i)^(.*[,\s])?max-age\s*=\s*(\d+).*$", "\2s"), 0s);
    } else {
        # No lifetime given: the origin always gives one, so do not guess one.
        call fds_not_stored;
    }

    set beresp.http.X-FDS-SWR = "0s";
    set beresp.grace = 0s;
    if (beresp.http.X-FDS-CC ~ "(?i)(^|[,\s])stale-while-revalidate\s*=\s*\d+") {
        set beresp.http.X-FDS-SWR =
            regsub(beresp.http.X-FDS-CC, "(?i)^(.*[,\s])?stale-while-revalidate\s*=\s*(\d+).*$", "\2s");
        set beresp.grace = std.duration(beresp.http.X-FDS-SWR, 0s);
    }
    # The object stays for the longer of the two stale windows; vcl_hit delivers it without asking
    # the origin only within stale-while-revalidate (kept in X-FDS-SWR on the object).
    if (beresp.http.X-FDS-CC ~ "(?i)(^|[,\s])stale-if-error\s*=\s*\d+") {
        set beresp.http.X-FDS-SIE =
            regsub(beresp.http.X-FDS-CC, "(?i)^(.*[,\s])?stale-if-error\s*=\s*(\d+).*$", "\2s");
        if (std.duration(beresp.http.X-FDS-SIE, 0s) > beresp.grace) {
            set beresp.grace = std.duration(beresp.http.X-FDS-SIE, 0s);
        }
        unset beresp.http.X-FDS-SIE;
    }
    # The stale copy (in grace) is what a refresh revalidates with If-None-Match; nothing beyond it.
    set beresp.keep = 0s;
    unset beresp.http.X-FDS-CC;
    # Stored as it is: the builtin VCL would make a hit-for-miss of anything with `no-store` in its
    # Cache-Control, which is for browsers here (errors say so in both headers; see above).
    return (deliver);
}

sub fds_not_stored {
    set beresp.ttl = 0s;
    set beresp.grace = 0s;
    set beresp.keep = 0s;
    unset beresp.http.X-FDS-CC;
    return (deliver);
}

sub vcl_backend_error {
    # No answer from the origin (refused, timed out). With a stale copy: as for a 5xx above.
    if (bereq.is_bgfetch || bereq.http.X-FDS-Refresh) {
        return (abandon);
    }
    # Not stored. (Varnish itself would keep this error for 1 s + 5 s grace when requests are
    # waiting for it; an origin back after a restart answers the very next request.)
    set beresp.ttl = 0s;
    set beresp.grace = 0s;
    set beresp.keep = 0s;
    set beresp.http.Content-Type = "application/json; charset=utf-8";
    set beresp.http.Cache-Control = "no-store";
    set beresp.http.Access-Control-Allow-Origin = "*";
    set beresp.http.Retry-After = "5";
    set beresp.body = {"{"error":"Origin unavailable"} + {"""} + "}";
    return (deliver);
}

sub vcl_deliver {
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
    # Varnish answers If-None-Match with 304 itself, but only when the header is exactly the ETag
    # (weakly compared). The API honours lists and `*` too (docs/json-api.md): a list holding this
    # ETag's opaque tag (quotes included, so never part of another), or `*`, becomes that ETag.
    if (resp.status == 200 && req.http.If-None-Match && resp.http.ETag) {
        if (req.http.If-None-Match ~ "^\s*\*\s*$" ||
            std.strstr(req.http.If-None-Match, regsub(resp.http.ETag, "^W/", ""))) {
            set req.http.If-None-Match = resp.http.ETag;
        }
    }
    # For this cache only: the client keeps Cache-Control, ETag, Vary and the CORS headers.
    unset resp.http.xkey;
    unset resp.http.Surrogate-Key;
    unset resp.http.Surrogate-Control;
    unset resp.http.Cache-Tag;
    unset resp.http.CDN-Cache-Control;
    unset resp.http.Netlify-CDN-Cache-Control;
    unset resp.http.Netlify-Cache-Tag;
    unset resp.http.Netlify-Vary;
    unset resp.http.X-FDS-SWR;
    return (deliver);
}

sub vcl_synth {
    # A fetch past a stale-if-error copy failed: start over, and this time take the copy.
    if (resp.status == 503 && req.http.X-FDS-Refresh && !req.http.X-FDS-Stale-If-Error) {
        set req.http.X-FDS-Stale-If-Error = "1";
        return (restart);
    }
    set resp.http.Content-Type = "application/json; charset=utf-8";
    set resp.http.Cache-Control = "no-store";
    set resp.http.Access-Control-Allow-Origin = "*";
    if (req.method == "PURGE" && resp.status == 200) {
        set resp.body = {"{"purged":"} + req.http.X-FDS-Purged + "}";
    } else {
        if (resp.status == 503) {
            set resp.http.Retry-After = "5";
        }
        set resp.body = {"{"error":"} + {"""} + resp.reason + {"""} + "}";
    }
    return (deliver);
}
