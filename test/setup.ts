/** Runs in every test file: temp directories made through test/helpers do not outlive their file. */
import { afterAll } from 'vitest';
import { removeTempDirs } from './helpers/store.js';

afterAll(removeTempDirs);
