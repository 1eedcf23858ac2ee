import sharp from 'sharp';
import fs from 'node:fs';
sharp.cache(false); sharp.concurrency(1);
const dir = '../shared/bench/identify/queries/';
const files = fs.readdirSync(dir).filter(f=>f.endsWith('.jpg')).slice(0,150);
const VS={thumb:320, full:1024} as any;
const tm:number[]=[], tv:number[]=[], t1:number[]=[];
for (const f of files) { const b=fs.readFileSync(dir+f);
  let t=performance.now();
  const out = await sharp(b, { failOn: 'error' }).rotate().resize(1600,1600,{fit:'inside',withoutEnlargement:true}).flatten({background:'#ffffff'}).jpeg({quality:88}).toBuffer({resolveWithObject:true});
  tm.push(performance.now()-t); t=performance.now();
  for (const v of ['thumb','full']) {
    const base = sharp(out.data).resize(VS[v],VS[v],{fit:'inside',withoutEnlargement:true});
    await base.clone().webp({quality:75,effort:0}).toBuffer();
    await base.clone().jpeg({quality:80}).toBuffer();
  }
  tv.push(performance.now()-t); t=performance.now();
  await sharp(out.data).resize(1024,1024,{fit:'inside',withoutEnlargement:true}).webp({quality:80,effort:0}).toBuffer();
  t1.push(performance.now()-t);
}
const med=(a:number[])=>[...a].sort((x,y)=>x-y)[a.length>>1].toFixed(1);
console.log('master', med(tm), 'variants', med(tv), 'full webp only', med(t1));
