/** The simulated systemd manager: unit files, jobs, dependencies, main processes and scripted unit behaviour. */
package dev.noneops.testkit.systemd;
