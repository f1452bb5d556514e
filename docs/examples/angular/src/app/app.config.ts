import { type ApplicationConfig, provideBrowserGlobalErrorListeners, provideZonelessChangeDetection } from '@angular/core';

/**
 * Zoneless (Angular's default since 21, spelled out): no zone.js is loaded, so websocket frames never trigger
 * change detection by themselves. The `async` pipe and signals mark the views that need it; a frame that
 * changes nothing on screen costs nothing in Angular. See docs/angular.md for the zone.js variant.
 */
export const appConfig: ApplicationConfig = {
  providers: [provideBrowserGlobalErrorListeners(), provideZonelessChangeDetection()],
};
