import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '/work/wt-15/src/generated/prisma/client.ts';
import { startPrivateCluster } from '/work/wt-15/te../support/private-cluster.ts';
import { openDatabase } from '/work/wt-15/src/db/database.ts';
const c = await startPrivateCluster();
const db0 = await openDatabase({ databaseUrl: c.url }); await db0.migrate(); await db0.close();
const pool = new pg.Pool({ connectionString: c.url, max: 2, connectionTimeoutMillis: 500, statement_timeout: 1000 } as any);
const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
const show = (label: string, e: any) => { const chain=[]; let x=e; while(x){chain.push({name:x.name, code:x.code, ctor:x.constructor?.name, msg:String(x.message).slice(0,150), meta: x.meta}); x=x.cause;} console.log(label, JSON.stringify(chain)); };
try { await prisma.$executeRawUnsafe('select pg_sleep(3)'); } catch (e) { show('stmt-timeout', e); }
const holders = [1,2].map(() => prisma.$executeRawUnsafe('select pg_sleep(0.9)').catch(e=>show('holder',e)));
await new Promise(r=>setTimeout(r,100));
let t=Date.now();
try { await prisma.user.count(); console.log('count ok', Date.now()-t); } catch (e) { show('acquire', e); console.log(Date.now()-t); }
t=Date.now();
try { await prisma.$transaction(async tx => tx.user.count()); console.log('tx ok'); } catch (e) { show('acquire-tx', e); console.log(Date.now()-t);}
await Promise.all(holders);
// lock wait
const other = new pg.Client({ connectionString: c.url }); await other.connect();
await other.query('begin'); await other.query('lock table "user" in access exclusive mode');
t=Date.now();
try { await prisma.user.count(); } catch (e) { show('lockwait', e); console.log(Date.now()-t); }
await other.query('rollback'); await other.end();
await prisma.$disconnect(); await pool.end();
await c.destroy();
