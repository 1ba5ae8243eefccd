#!/usr/bin/env node
import '../dist/bundle/confctl.js';
