/**
 * Exception classes named exactly like systemd's D-Bus error names, so that dbus-java maps those
 * error replies to distinct types (it instantiates the class whose name equals the error name).
 */
package org.freedesktop.systemd1;
