/**
 * Internal to adapter-systemd-dbus (no other module uses it). Java declarations of the systemd
 * D-Bus API the adapter uses: the Manager interface, its
 * {@code JobRemoved} signal and the container types of its replies. No logic lives here.
 */
package dev.noneops.systemd.internal.dbus;
