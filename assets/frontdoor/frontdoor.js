/*
 * The front door's script (served from the same origin as the page, like everything it loads).
 * The page is a static file that may be read long after it was built, so only the reader's browser
 * knows how old its data is: this script adds "(… ago)" to every time, warns when the last
 * successful sync is older than the page's data-stale-after, and renders the API reference.
 */
(() => {
  const now = Date.now();

  const ago = (ms) => {
    const units = [
      ['day', 86_400_000],
      ['hour', 3_600_000],
      ['minute', 60_000],
    ];
    if (ms < 0) return 'in the future by this browser’s clock';
    for (const [unit, size] of units) {
      const count = Math.floor(ms / size);
      if (count >= 1) return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
    }
    return 'just now';
  };

  for (const el of document.querySelectorAll('time[data-age]')) {
    const at = Date.parse(el.dateTime);
    if (!Number.isNaN(at)) el.after(` (${ago(now - at)})`);
  }

  const freshness = document.getElementById('freshness');
  const lastSuccess = document.getElementById('last-success');
  const warning = document.getElementById('stale-warning');
  const limitMs = Number(freshness?.dataset.staleAfter) * 1000;
  if (freshness && lastSuccess && warning && limitMs > 0) {
    const age = now - Date.parse(lastSuccess.dateTime);
    if (age > limitMs) {
      const strong = document.createElement('strong');
      strong.textContent = 'Warning:';
      warning.append(
        strong,
        ` the last successful sync was ${ago(age)}. The data may be out of date: the publishing job may have stopped.`,
      );
      warning.hidden = false;
    }
  }

  const reference = document.getElementById('api-reference');
  if (reference && typeof window.SwaggerUIBundle === 'function') {
    window.SwaggerUIBundle({
      url: reference.dataset.spec,
      domNode: reference,
      // The default asks validator.swagger.io about the document: no request may leave the origin.
      validatorUrl: null,
      deepLinking: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      displayRequestDuration: true,
      supportedSubmitMethods: ['get'],
    });
  }
})();
