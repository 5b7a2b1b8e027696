/** Notifications to the service manager over {@code $NOTIFY_SOCKET} ({@link dev.noneops.hostfs.service.NotifySocketServiceNotifier}). */
package dev.noneops.hostfs.service;
