#!/usr/bin/env node
// The `hornetq` command. Its code is in hornetq-js, beside the broker and the client it drives, so
// that an application and the command share one copy of them; this package brings the packages
// they load (commander, pino, prom-client, fast-xml-parser...), which hornetq-js leaves out so
// that a service that only connects installs none of them.
'use strict';
void require('hornetq-js/command').main(process.argv);
