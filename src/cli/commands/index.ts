import type { Command } from 'commander';
import { registerTestRun } from './test-run.js';
import { registerDoctor } from './doctor.js';
import { registerBuildImage } from './build-image.js';
import { registerValidate } from './validate.js';
import { registerInject } from './inject.js';
import { registerSolve } from './solve.js';
import { registerGrade } from './grade.js';
import { registerExport } from './export.js';
import { registerSelfplay } from './selfplay.js';
import { registerCorpus } from './corpus.js';
import { registerReport } from './report.js';
import { registerInit } from './init.js';

/** Every `ssr` command, in the order `ssr --help` lists them. Each entry registers one command. */
export const commands: Array<(program: Command) => void> = [
  registerInit,
  registerSelfplay,
  registerInject,
  registerSolve,
  registerGrade,
  registerValidate,
  registerCorpus,
  registerExport,
  registerReport,
  registerTestRun,
  registerBuildImage,
  registerDoctor,
];
