/*
 * The service worker of Web Push (price alerts): shows what the upstream pushed as a notification, and
 * opens (or focuses) the app at the notification's page when it is tapped. Nothing is cached here: the
 * app works from the network, and a stale cached page of prices would be worse than none.
 */
self.addEventListener('push', (event) => {
  let payload = { title: 'LotFX', body: '', url: '/' };
  try {
    payload = { ...payload, ...event.data.json() };
  } catch {
    // not ours: show the default rather than nothing (browsers require a notification for each push)
  }
  const url = typeof payload.url === 'string' && payload.url.startsWith('/') && !payload.url.startsWith('//') ? payload.url : '/';
  event.waitUntil(
    self.registration.showNotification(payload.title, {
      body: payload.body,
      tag: payload.tag,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url.startsWith(self.location.origin));
      if (open) return open.navigate(url).then((w) => (w ?? open).focus());
      return self.clients.openWindow(url);
    }),
  );
});
