/**
 * The service manager's notification protocol ({@link dev.noneops.ports.service.ServiceNotifier}):
 * how a daemon run by a {@code Type=notify} unit tells systemd it is ready, reloading or stopping,
 * what it is doing, and that it is still alive.
 */
package dev.noneops.ports.service;
