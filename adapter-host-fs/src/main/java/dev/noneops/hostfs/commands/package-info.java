/** Running host commands with timeouts and bounded output capture. */
package dev.noneops.hostfs.commands;
